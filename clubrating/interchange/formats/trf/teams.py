"""Team records of a TRF file (TRF-2026, FIDE Handbook C04 Annex 2, team section): the teams
(``310``: pairing number, name, match and game points, rank, players by start rank in board
order), each team's lineup of a round (``300``: players board by board, ``0000`` for an empty
board) and forfeited matches (``330``). The reader keeps these lines verbatim among
``extra_lines``; this module writes and reads them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..limits import ROUNDS_MAX, START_RANK_MAX, FieldError, parse_whole
from .writer import one_line

__all__ = [
    "TrfForfeitMatch",
    "TrfLineup",
    "TrfTeam",
    "TrfTeams",
    "format_forfeit_line",
    "format_lineup_line",
    "format_team_line",
    "team_records",
]

TEAM_MAX = 999  # three columns


@dataclass(frozen=True)
class TrfTeam:
    number: int
    name: str
    match_points: float | None = None
    game_points: float | None = None
    rank: int | None = None
    players: tuple[int, ...] = ()


@dataclass(frozen=True)
class TrfLineup:
    round: int
    team: int
    opponent: int
    players: tuple[int, ...]  # board by board; 0: the board was empty


@dataclass(frozen=True)
class TrfForfeitMatch:
    kind: str  # "+-" won by the white (first-named) team, "-+" by the black one, "--" by neither
    round: int
    white: int
    black: int


@dataclass
class TrfTeams:
    teams: list[TrfTeam] = field(default_factory=list)
    lineups: list[TrfLineup] = field(default_factory=list)
    forfeits: list[TrfForfeitMatch] = field(default_factory=list)


def _points(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def format_team_line(team: TrfTeam) -> str:
    """``310`` with the team number in columns 5-7, the name in 9-40, match points in 55-60,
    game points in 62-67, the rank in 69-71 and the players from column 74, four columns each."""
    fixed = (
        f"310 {team.number:>3} {one_line(team.name)[:32]:<32} {'':<5} {'':>6} "
        f"{_points(team.match_points):>6} "
        f"{_points(team.game_points):>6} {'' if team.rank is None else team.rank:>3}  "
    )
    return (fixed + " ".join(f"{player:>4}" for player in team.players)).rstrip()


def format_lineup_line(lineup: TrfLineup) -> str:
    """``300``: round in columns 5-7, team 9-11, opponent 13-15, players from column 17."""
    return f"300 {lineup.round:>3} {lineup.team:>3} {lineup.opponent:>3} " + " ".join(
        f"{player:04d}" if player == 0 else f"{player:>4}" for player in lineup.players
    )


def format_forfeit_line(forfeit: TrfForfeitMatch) -> str:
    """``330``: the kind in columns 5-6, round 8-10, white team 12-14, black team 16-18."""
    return f"330 {forfeit.kind} {forfeit.round:03d} {forfeit.white:03d} {forfeit.black:03d}"


def _decimal(text: str, field_name: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise FieldError("not_decimal", field=field_name, value=text[:40]) from None


def _players(text: str, low: int) -> tuple[int, ...]:
    return tuple(parse_whole(cell, "start rank", low, START_RANK_MAX) for cell in text.split())


def team_records(lines: Iterable[str]) -> TrfTeams:
    """The team records among a file's other lines (``TrfTournament.extra_lines``); a field that
    cannot be read raises ``FieldError``."""
    found = TrfTeams()
    for line in lines:
        code, padded = line[:3], line.ljust(80)
        if code == "310":
            rank = padded[68:71].strip()
            found.teams.append(
                TrfTeam(
                    number=parse_whole(padded[4:7], "team number", 1, TEAM_MAX),
                    name=padded[8:40].strip(),
                    match_points=_decimal(padded[54:60], "match points"),
                    game_points=_decimal(padded[61:67], "game points"),
                    rank=parse_whole(rank, "rank", 1, TEAM_MAX) if rank else None,
                    players=_players(padded[73:], 1),
                )
            )
        elif code == "300":
            found.lineups.append(
                TrfLineup(
                    round=parse_whole(padded[4:7], "round", 1, ROUNDS_MAX),
                    team=parse_whole(padded[8:11], "team number", 1, TEAM_MAX),
                    opponent=parse_whole(padded[12:15], "team number", 1, TEAM_MAX),
                    players=_players(padded[16:], 0),
                )
            )
        elif code == "330":
            kind = padded[4:6]
            if kind not in ("+-", "-+", "--"):
                raise FieldError("forfeit_kind", field="forfeit kind", value=kind)
            found.forfeits.append(
                TrfForfeitMatch(
                    kind=kind,
                    round=parse_whole(padded[7:10], "round", 1, ROUNDS_MAX),
                    white=parse_whole(padded[11:14], "team number", 1, TEAM_MAX),
                    black=parse_whole(padded[15:18], "team number", 1, TEAM_MAX),
                )
            )
    return found
