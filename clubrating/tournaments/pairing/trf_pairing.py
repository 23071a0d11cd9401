"""Pair a round of a tournament described in a TRF file, and re-pair a finished file round by round.

This is what an arbiter does with a pairing program's "check" mode (FIDE Handbook C.04.A, Annex 3,
"Endorsement of a software program"): take the history before a round, the byes that were known
in advance for that round (``H``, ``F``, ``Z``), pair it, and compare with the pairing published.
The file may be TRF16 or TRF-2026; ``XXR`` gives the planned rounds (needed for the last-round
colour exceptions) and ``XXC`` the initial colour (``white1``/``black1``); without ``XXC`` the
initial colour is read from round 1 as the endorsed programs do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from py4swiss.engines.common import PairingError
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError

from clubrating.interchange.formats.trf import TrfGame, TrfTournament
from clubrating.interchange.formats.trf.acceleration import read_accelerations
from clubrating.interchange.formats.trf.settings import trf_settings
from clubrating.tournaments.pairing.baku import baku_acceleration, baku_group_a_size
from clubrating.tournaments.pairing.dutch2017 import Engine as Dutch2017Engine
from clubrating.tournaments.pairing.dutch2026.engine import Engine as Dutch2026Engine
from clubrating.tournaments.pairing.editions import (
    EDITION_2017,
    EDITION_2026,
    edition_for_start,
)
from clubrating.tournaments.pairing.swiss import engine_acceleration_lines, engine_input_parse
from clubrating.tournaments.pairing.trf_reasons import Reason, round_reason

__all__ = [
    "EDITION_2017",
    "EDITION_2026",
    "Reason",
    "RoundCheck",
    "TrfPairingError",
    "check_trf",
    "edition_for_start",
    "file_accelerations",
    "file_edition",
    "pair_next_round",
    "pair_trf_round",
    "played_pairs",
]

# Byes an entrant can have in the round to pair before it is paired (requested, or not taking part).
KNOWN_BYES = frozenset("HFZ")
_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}

Pair = tuple[int, int]  # (white, black); black 0 for the pairing-allocated bye


class TrfPairingError(ValueError):
    """The round cannot be paired from this file; ``code`` names the reason for a translated message."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def _is_known_bye(game: TrfGame) -> bool:
    """A round entry that was fixed before the round was paired: a requested or zero-point bye."""
    return game.opponent is None and (game.result in KNOWN_BYES or game.result in ("-", ""))


def file_edition(trf: TrfTournament) -> str:
    """The edition a file asks for: TRF-2026's pairing system (``192``, as the export writes it,
    else ``092``, as bbpPairings' generator writes it; FIDE_DUTCH_2025 names the rules approved in
    2025 and in force from 2026, FIDE_DUTCH the ones before), else the start date (``042``)."""
    system = trf_settings(trf.extra_lines).pairing_system or trf.header.get("092", "").strip().upper()
    system = system.removesuffix("_BAKU")  # the accelerated system of the same edition (C.04.5.1)
    if system == "FIDE_DUTCH":
        return EDITION_2017
    year = system.removeprefix("FIDE_DUTCH_")
    if system.startswith("FIDE_DUTCH_") and year.isdigit():
        return EDITION_2026 if year >= "2025" else EDITION_2017
    return edition_for_start(trf.start_date)


def planned_rounds(trf: TrfTournament) -> int:
    total = trf.declared_rounds or 0
    for line in trf.extra_lines:
        if line.startswith(("XXR", "142")):
            try:
                total = max(total, int(line[3:].split()[0]))
            except (ValueError, IndexError):
                continue
    return max(total, trf.rounds)


def initial_colour(trf: TrfTournament) -> str:
    """``w`` or ``b``: from ``XXC``, else the round-1 colour of the highest player taking part, the
    colour alternating over the players who take part (the next one's colour reversed, and so on)."""
    for line in trf.extra_lines:
        if line.startswith("152") and line[4:5] in ("W", "B"):  # TRF-2026
            return line[4].lower()
        if line.startswith("XXC"):
            words = line[3:].split()
            if "black1" in words:
                return "b"
            if "white1" in words:
                return "w"
    taking_part = 0
    for player in sorted(trf.players, key=lambda p: p.start_rank):
        game = player.results[0] if player.results else None
        if game is None or _is_known_bye(game):
            continue
        if game.colour in ("w", "b"):
            return game.colour if taking_part % 2 == 0 else ("b" if game.colour == "w" else "w")
        taking_part += 1
    return "w"


def file_accelerations(trf: TrfTournament) -> dict[int, dict[int, float]]:
    """Virtual points per player and round: the file's ``250``/``XXA`` lines; a file that names
    a Baku-accelerated system (``192 FIDE_DUTCH_2025_BAKU``) without them gets them by the rule
    (C.04.5.1) over its start list."""
    found = read_accelerations(trf.extra_lines)
    if found or not trf_settings(trf.extra_lines).pairing_system.endswith("_BAKU"):
        return found
    ranks = sorted(p.start_rank for p in trf.players if not p.is_dummy)
    return baku_acceleration(group_a=ranks[: baku_group_a_size(len(ranks))], rounds=planned_rounds(trf))


def _cell(game: TrfGame) -> str:
    if game.opponent is None:
        # Not paired and no bye code ("0000 - -", or blank): a round without points, as "Z".
        return f"0000 - {game.result if game.result not in ('', '-') else 'Z'}"
    colour = game.colour if game.colour in ("w", "b") else "-"
    return f"{game.opponent:4d} {colour} {game.result or '-'}"


def announced_byes(trf: TrfTournament) -> dict[tuple[int, int], str]:
    """TRF-2026 ``240`` lines: byes requested for a round, ``{(round, player): code}``."""
    byes = {}
    for line in trf.extra_lines:
        if not line.startswith("240") or len(line) < 11:
            continue
        code = line[4] if line[4] in KNOWN_BYES else "Z"
        try:
            rnd = int(line[6:9])
            players = [int(line[i : i + 4]) for i in range(10, len(line.rstrip()) - 3, 5)]
        except ValueError as exc:
            raise TrfPairingError("inconsistent", f"the file is inconsistent: {line[:40]}") from exc
        for player in players:
            byes[(rnd, player)] = code
    return byes


def round_input(trf: TrfTournament, round_number: int) -> str:
    """TRF(x) for pairing ``round_number``: rounds before it, and its byes known in advance."""
    total = planned_rounds(trf)
    requested = announced_byes(trf)
    lines = [f"XXR {max(total, round_number)}", f"XXC {'white1' if initial_colour(trf) == 'w' else 'black1'}"]
    lines += engine_acceleration_lines(file_accelerations(trf), max(total, round_number))
    for player in sorted(trf.players, key=lambda p: p.start_rank):
        if player.is_dummy:
            continue
        games = list(player.results[: round_number - 1])
        games += [TrfGame(len(games) + 1, None, "-", "-")] * (round_number - 1 - len(games))
        now = player.results[round_number - 1] if len(player.results) >= round_number else None
        if now is not None and _is_known_bye(now):
            games.append(TrfGame(round_number, None, "-", now.result if now.result in KNOWN_BYES else "Z"))
        elif (round_number, player.start_rank) in requested:
            games.append(TrfGame(round_number, None, "-", requested[(round_number, player.start_rank)]))
        points = sum(_POINTS.get(g.result, 0.0) for g in games)
        line = (
            f"001 {player.start_rank:4d}      {'P' + str(player.start_rank):<33} {player.rating or 0:4d}"
            f"     {0:11d} {'':10} {points:4.1f} {player.start_rank:4d}"
        )
        lines.append(line + "".join("  " + _cell(g) for g in games))
    return "\n".join(lines) + "\n"


def pair_trf_round(trf: TrfTournament, round_number: int, *, edition: str = EDITION_2026) -> list[Pair]:
    """The pairing of ``round_number`` from the rounds before it; boards in publishing order."""
    engine = Dutch2026Engine if edition == EDITION_2026 else Dutch2017Engine
    try:
        pairings = engine.generate_pairings(engine_input_parse(round_input(trf, round_number)))
    except PairingError as exc:
        raise TrfPairingError("unpairable", "the round cannot be paired by the absolute criteria") from exc
    except (ConsistencyError, LineError, ParsingError, ValueError) as exc:
        raise TrfPairingError("inconsistent", f"the file is inconsistent: {exc}") from exc
    games = [(p.white, p.black) for p in pairings if p.black != 0]
    return games + [(p.white, 0) for p in pairings if p.black == 0]


def pair_next_round(trf: TrfTournament, *, edition: str = EDITION_2026) -> list[Pair]:
    """Pair the first round not yet paired (a round holding only byes known in advance counts as
    not yet paired)."""
    next_round = _paired_rounds(trf) + 1
    declared = _declared_rounds(trf)
    if declared and next_round > declared:
        raise TrfPairingError("complete", f"all {declared} rounds are paired", rounds=declared)
    return pair_trf_round(trf, next_round, edition=edition)


def _declared_rounds(trf: TrfTournament) -> int | None:
    """The planned rounds when the file states them (``XXR``), else None."""
    total = trf.declared_rounds
    for line in trf.extra_lines:
        if line.startswith(("XXR", "142")) and line[3:].split() and line[3:].split()[0].isdigit():
            total = int(line[3:].split()[0])
    return total


def _paired_rounds(trf: TrfTournament) -> int:
    paired = 0
    for player in trf.players:
        for game in player.results:
            if not _is_known_bye(game):
                paired = max(paired, game.round)
    return paired


def played_pairs(trf: TrfTournament, round_number: int) -> list[Pair]:
    """The pairing of ``round_number`` as recorded, White first (games), then the PAB as ``(n, 0)``."""
    dummies = {p.start_rank for p in trf.players if p.is_dummy}
    pairs: list[Pair] = []
    byes: list[Pair] = []
    seen: set[int] = set()
    for player in sorted(trf.players, key=lambda p: p.start_rank):
        if player.start_rank in dummies or len(player.results) < round_number:
            continue
        game = player.results[round_number - 1]
        if player.start_rank in seen or _is_known_bye(game):
            continue
        if game.opponent is None or game.opponent in dummies:
            byes.append((player.start_rank, 0))
            continue
        white, black = (
            (game.opponent, player.start_rank) if game.colour == "b" else (player.start_rank, game.opponent)
        )
        pairs.append((white, black))
        seen.update((white, black))
    return pairs + byes


@dataclass(frozen=True)
class RoundCheck:
    """One round of a file re-paired: the pairing published and the one the rules give."""

    round: int
    played: list[Pair]
    expected: list[Pair] | None  # None when the round could not be paired
    error: str = ""
    error_code: str = ""  # TrfPairingError.code, for a translated message
    reason: Reason | None = None  # why a differing round differs (trf_reasons)

    @property
    def matches(self) -> bool:
        return self.expected is not None and sorted(self.played) == sorted(self.expected)

    @property
    def only_played(self) -> list[Pair]:
        """Boards published that the rules do not give (colours count)."""
        expected = set(self.expected or [])
        return [pair for pair in self.played if pair not in expected]

    @property
    def only_expected(self) -> list[Pair]:
        """Boards the rules give that were not published."""
        played = set(self.played)
        return [pair for pair in self.expected or [] if pair not in played]


def check_trf(trf: TrfTournament, *, edition: str = EDITION_2026,
              progress: Callable[[int, int], None] | None = None) -> list[RoundCheck]:
    """Re-pair every paired round of the file from the rounds before it; a round that differs
    carries the reason (the first criterion broken or differing). ``progress(done, total)`` is
    called after each round."""
    checks = []
    total = _paired_rounds(trf)
    for rnd in range(1, total + 1):
        played = played_pairs(trf, rnd)
        try:
            expected: list[Pair] | None = pair_trf_round(trf, rnd, edition=edition)
        except TrfPairingError as exc:
            checks.append(RoundCheck(rnd, played, None, str(exc), exc.code))
        else:
            check = RoundCheck(rnd, played, expected)
            if not check.matches:
                engine_input = engine_input_parse(round_input(trf, rnd))
                reason = round_reason(trf, rnd, played, expected, edition=edition, engine_input=engine_input)
                check = RoundCheck(rnd, played, expected, reason=reason)
            checks.append(check)
        if progress is not None:
            progress(rnd, total)
    return checks
