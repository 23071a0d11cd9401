"""Dutch-system pairing (FIDE C.04.3) in the edition a tournament is paired by: the rules until
31 January 2026 through py4swiss (``dutch2017``), the Dutch system of 2026 through the modified copy
of its engine (``dutch2026``); see docs/rules.md, "Swiss pairing: the FIDE Dutch system".

py4swiss (MIT, a Python port of the FIDE-endorsed bbpPairings) pairs from a TRF(x) description of
the tournament so far, so the history is written out as TRF(x) lines in memory: one player line per
entrant with all past rounds, a round-``n`` entry for entrants who do not take part in the round
(requested byes, withdrawals), ``XXR`` (total rounds, needed for the last-round colour exceptions),
``XXC`` (colour of player 1 in round 1) and ``XXA`` (Baku acceleration) lines.

Why py4swiss: of the three candidates tried on the real files in ``tests/data/trf`` it was the only
one that always produced legal pairings and matched the actually played pairings best (see the
tests in ``tests/tournaments/test_swiss.py`` for the measured figures).
"""

from __future__ import annotations

from collections import defaultdict

from py4swiss.engines.common import PairingError
from py4swiss.trf.codes import PlayerCode, XCode
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError
from py4swiss.trf.parsed_trf import ParsedTrf
from py4swiss.trf.sections import PlayerSection, TournamentSection, XSection
from py4swiss.trf.trf_line import TrfLine

from clubrating.tournaments.pairing.dutch2017 import Engine as Dutch2017Engine
from clubrating.tournaments.pairing.dutch2026 import Engine as Dutch2026Engine
from clubrating.tournaments.pairing.history import (
    ABSENT,
    FORFEIT_WIN,
    PAB,
    PLAYED,
    RoundRecord,
)
from clubrating.tournaments.pairing.legality import Pairing

# The editions of the Dutch system (values of the tournament's ``pairing_rules``).
DUTCH_2017 = "dutch_2017"  # C.04.3 until 31 January 2026: py4swiss 0.3.1
DUTCH_2026 = "dutch_2026"  # C.04.3 from 1 February 2026, with C.04.1 and C.04.2 of 2026

__all__ = [
    "DUTCH_2017", "DUTCH_2026", "SwissPairingError", "engine_acceleration_lines", "pair_swiss", "trfx_text",
]


class SwissPairingError(ValueError):
    """The round cannot be paired (e.g. everybody has met everybody) or the history is inconsistent."""


def _bye_code(points: float) -> str:
    return {1.0: "F", 0.5: "H"}.get(points, "Z")


def _cell(pid: int, rec: RoundRecord) -> str:
    if rec.kind == PAB:
        return "0000 - U"
    if rec.kind == ABSENT or rec.opponent is None:
        return "0000 - " + _bye_code(rec.points)
    # Unknown colours (e.g. double forfeits in old files) must still be consistent for both sides.
    colour = rec.colour or ("w" if pid < rec.opponent else "b")
    if rec.kind == PLAYED:
        code = {1.0: "1", 0.5: "="}.get(rec.points, "0")
    elif rec.kind == FORFEIT_WIN:
        code = "+"
    else:
        code = "-"
    return f"{rec.opponent:4d} {colour} {code}"


def engine_acceleration_lines(acceleration: dict[int, dict[int, float]], total_rounds: int) -> list[str]:
    """The engine's ``XXA`` lines: each accelerated player's virtual points in rounds 1, 2, …"""
    lines = []
    for pid, per_round in sorted(acceleration.items()):
        values = "".join(f" {per_round.get(r, 0.0):4.1f}" for r in range(1, total_rounds + 1))
        lines.append(f"XXA {pid:4d}{values}")
    return lines


def trfx_text(
    history: dict[int, list[RoundRecord]],
    ratings: dict[int, int],
    *,
    round_number: int,
    total_rounds: int,
    absent: dict[int, float] | None = None,
    initial_colour: str = "w",
    acceleration: dict[int, dict[int, float]] | None = None,
) -> str:
    """TRF(x) for pairing ``round_number``. ``absent`` maps entrants not to pair to their points."""
    absent = absent or {}
    lines = [f"XXR {total_rounds}", f"XXC {'white1' if initial_colour == 'w' else 'black1'}"]
    lines += engine_acceleration_lines(acceleration or {}, total_rounds)
    for pid, records in sorted(history.items()):
        past = list(records[: round_number - 1])
        past += [RoundRecord(ABSENT, 0.0)] * (round_number - 1 - len(past))
        cells = [_cell(pid, rec) for rec in past]
        points = sum(rec.points for rec in past)
        if pid in absent:
            cells.append("0000 - " + _bye_code(absent[pid]))
            points += absent[pid]
        line = (
            f"001 {pid:4d}      {'P' + str(pid):<33} {ratings.get(pid) or 0:4d}     {0:11d} {'':10} "
            f"{points:4.1f} {pid:4d}"
        )
        lines.append(line + "".join("  " + c for c in cells))
    return "\n".join(lines) + "\n"


def engine_input_parse(text: str) -> ParsedTrf:
    """The engine's input (a TRF text in py4swiss' reading), checked for consistency."""
    by_code: dict[type, list[TrfLine]] = defaultdict(list)
    for index, raw in enumerate(text.splitlines()):
        if raw.strip():
            line = TrfLine(index, raw.rstrip())
            by_code[line.code_type].append(line)
    trf = ParsedTrf(
        player_sections=[PlayerSection.from_string(str(x)) for x in by_code[PlayerCode]],
        team_sections=[],
        tournament_section=TournamentSection.from_lines([]),
        x_section=XSection.from_lines(by_code[XCode]),
    )
    trf.validate_contents()
    return trf


def pair_swiss(
    history: dict[int, list[RoundRecord]],
    ratings: dict[int, int],
    *,
    round_number: int,
    total_rounds: int,
    absent: dict[int, float] | None = None,
    initial_colour: str = "w",
    acceleration: dict[int, dict[int, float]] | None = None,
    rules: str = DUTCH_2017,
) -> list[Pairing]:
    """Pair ``round_number`` by the Dutch system of the edition ``rules``.

    ``history`` maps every entrant's id (= starting rank, the pairing number) to its records of the
    previous rounds; ``absent`` lists entrants who sit the round out and the points they get.
    Returns the boards in FIDE's publishing order; the PAB is the board with ``black=None``.
    """
    text = trfx_text(
        history, ratings, round_number=round_number, total_rounds=total_rounds, absent=absent,
        initial_colour=initial_colour, acceleration=acceleration,
    )
    try:
        engine = Dutch2026Engine if rules == DUTCH_2026 else Dutch2017Engine
        result = engine.generate_pairings(engine_input_parse(text))
    except (PairingError, ConsistencyError, LineError, ParsingError, ValueError) as exc:
        raise SwissPairingError(str(exc)) from exc
    games = [p for p in result if p.black != 0]
    byes = [p for p in result if p.black == 0]
    return [Pairing(i + 1, p.white, p.black or None) for i, p in enumerate(games + byes)]
