"""The tie-breaks by their codes: the editions, presets, codes and their modifiers, parsing a
tournament's list.

Two editions: ``"2023"`` (the text applied from 2023 until 28 February 2026) and ``"2026"`` (in
force since 1 March 2026). A tournament keeps the edition of its start date (``edition_for``);
what the 2026 edition changes is listed after the 2023 rules below.
"""

from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass

from clubrating.tournaments.team_table import TEAM_TIEBREAKS

# Named tie-break sets per system, after FIDE's Tie-Break Regulations (C.07, 2023), art. 13
# (recommendations): individual round robins direct encounter, wins, Sonneborn-Berger, Koya;
# individual Swiss Buchholz Cut-1, Buchholz, Sonneborn-Berger (then direct encounter, wins).
# (system, key, TRF-2026 codes); the labels are the pages' business.
TIEBREAK_PRESETS: list[tuple[str, str, str]] = [
    ("round_robin", "rr-fide", "DE,WIN,SB,KS"),
    ("round_robin", "rr-sb", "SB,DE,WIN,KS"),
    ("swiss", "swiss-bh", "BH/C1,BH,SB"),
    ("swiss", "swiss-fide", "BH/C1,BH,SB,DE,WIN"),
    ("team", "team-sb", "SB,DE"),
]
# The set a new tournament of each system gets unless the director chooses another.
RECOMMENDED = {
    "round_robin": "DE,WIN,SB,KS", "swiss": "BH/C1,BH,SB", "team": "SB,DE", "casual": "BH/C1,BH,SB",
}

WIN_POINTS = 1.0
DRAW_POINTS = 0.5

EDITION_2023, EDITION_2026 = "2023", "2026"
EDITIONS = (EDITION_2023, EDITION_2026)
# The 2026 edition applies from 1 March 2026 (C.07, "effective from 1 March 2026").
EDITION_2026_FROM = datetime.date(2026, 3, 1)


def edition_for(start: datetime.date) -> str:
    """The edition a tournament starting on ``start`` keeps for good."""
    return EDITION_2026 if start >= EDITION_2026_FROM else EDITION_2023

# Base codes and the modifiers each accepts.
SUPPORTED_CODES: dict[str, frozenset[str]] = {
    "BH": frozenset({"C1", "C2", "M1", "M2"}),
    "FB": frozenset({"C1", "C2", "M1", "M2"}),
    "AOB": frozenset(),
    "SB": frozenset({"C1", "C2", "M1", "M2"}),
    "DE": frozenset(),
    "WIN": frozenset(),
    "WON": frozenset(),
    "BPG": frozenset(),
    "BWG": frozenset(),
    "ARO": frozenset({"C1", "C2", "M1", "M2"}),
    "TPR": frozenset(),
    "PTP": frozenset(),
    "APRO": frozenset(),
    "APPO": frozenset(),
    "KS": frozenset(),
    "PS": frozenset({"C1", "C2"}),
    "REP": frozenset(),
}
# Added by the 2026 edition (art. 7.7, 7.8, 10.6).
CODES_2026: dict[str, frozenset[str]] = {"STD": frozenset(), "TPN": frozenset(), "RTNG": frozenset()}
# The Buchholz family (BH, AOB, FB) must not be used in a round robin (2026, art. 8).
NOT_IN_ROUND_ROBIN_2026 = frozenset({"BH", "AOB", "FB"})
# Ranked lower value first (art. 7.8: the lower pairing number first).
_LOWER_FIRST = frozenset({"TPN"})


def known_codes(edition: str = EDITION_2026) -> dict[str, frozenset[str]]:
    """The base codes of ``edition`` and the modifiers each accepts."""
    return {**SUPPORTED_CODES, **CODES_2026} if edition == EDITION_2026 else dict(SUPPORTED_CODES)

_CODE = re.compile(r"^([A-Z]+)(?:/([A-Z]\d))?$")


class UnknownTiebreak(ValueError):
    """A tie-break code the calculator does not know; ``str()`` is the code as written."""


@dataclass(frozen=True)
class TiebreakSpec:
    code: str  # e.g. "BH"
    modifier: str = ""  # e.g. "C1"

    @property
    def label(self) -> str:
        return f"{self.code}/{self.modifier}" if self.modifier else self.code


def split_code(raw: str) -> tuple[str, str]:
    """``"bh/c1"`` -> ``("BH", "C1")``, any code of TRF-2026's form; UnknownTiebreak otherwise."""
    text = raw.strip().upper()
    match = _CODE.match(text)
    if not match:
        raise UnknownTiebreak(text)
    return match.group(1), match.group(2) or ""


# The decimals a tie-break's values need, the same on the page, in print, the PDF and the exports,
# so that a column never mixes "2" and "2,5" and a file never says "2" where the page says "2,0".
# Counts and ratings are whole numbers; Sonneborn-Berger moves in quarter points; points scored
# (direct encounter: the points among the tied players, art. 6; Koya; Buchholz) in half points.
_WHOLE = frozenset({"WIN", "WON", "BPG", "BWG", "GE", "ARO", "TPR", "PTP", "APRO", "APPO", "REP", "RFP",
                    "TPN", "RTNG"})
# AOB is an average (two decimals); the teams' extended SB multiply halves by halves.
_QUARTERS = frozenset({"SB", "ESB", "SMP", "AOB", "EMMSB", "EMGSB", "EGMSB", "EGGSB"})


@functools.lru_cache(maxsize=256)  # a long table asks for each column's code once per cell
@functools.lru_cache(maxsize=512)  # a long table asks for each of its few codes on every row
@functools.lru_cache(maxsize=256)  # asked once per cell of a long table, for a handful of codes
def decimals_for(code: str) -> int:
    """The decimals of the tie-break ``code`` ("SB" 2, "DE" and "BH/C1" 1, "WIN" 0)."""
    try:
        base, _modifier = split_code(code)
    except UnknownTiebreak:
        return 1
    if base in _WHOLE:
        return 0
    if base in _QUARTERS:
        return 2
    return 1


def parse_tiebreaks(
    text: str | list[str], edition: str = EDITION_2026, *, round_robin: bool = False
) -> list[TiebreakSpec]:
    """``"BH/C1,BH,SB"`` (or its codes as a list) -> specs; UnknownTiebreak names the first code
    the calculator does not support in ``edition`` (or, by the 2026 edition, a Buchholz in a
    round robin, art. 8). The one reader of tie-break lists."""
    parts = text.split(",") if isinstance(text, str) else text
    codes = known_codes(edition)
    specs = []
    for raw in (part for part in parts if part.strip()):
        code, modifier = split_code(raw)
        if code not in codes or (modifier and modifier not in codes[code]):
            raise UnknownTiebreak(raw.strip().upper())
        if round_robin and edition == EDITION_2026 and code in NOT_IN_ROUND_ROBIN_2026:
            raise UnknownTiebreak(raw.strip().upper())
        specs.append(TiebreakSpec(code, modifier))
    return specs


# A team competition's list after the match points: what it had before lists were chosen.
RECOMMENDED_TEAM = "GP,EMGSB"


def parse_team_tiebreaks(text: str) -> list[str]:
    """``"gp, emmsb"`` -> ``["GP", "EMMSB"]``, the team tie-breaks of a team competition (C.07's
    team codes the engine knows, ``team_table.TEAM_TIEBREAKS``, each at most once; the same in both
    editions); UnknownTiebreak names the first code it does not know or a repeated one."""
    codes: list[str] = []
    for raw in (part for part in text.split(",") if part.strip()):
        code = raw.strip().upper()
        if code not in TEAM_TIEBREAKS or code in codes:
            raise UnknownTiebreak(code)
        codes.append(code)
    return codes
