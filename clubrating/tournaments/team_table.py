"""The table of a team competition on plain data: no Django, no database. The one team-table
engine: a league division's table (``clubrating.leagues``) and a team competition's that is not a
league division (``selectors.team_standings``) are both ranked here.

The matches come in as ``MatchResult`` (the two teams and each board's points from the home
team's side, forfeits already scored); the match points and the ordered criteria (MP, BP, BW,
DE, W, SB; a league's are its season's ``Criterion`` codes) rank the teams.

Conventions (docs/rules.md, "Team leagues" and "Tie-breaks"):
- Match points: the season's points for a win, a draw and a loss of the match (2/1/0 by default).
- Board points: the sum of the board results; a board left empty is lost by the team that left
  it empty (the opponent gets its point), a team that did not appear loses every board.
- Berliner Wertung: a won board b of n boards counts n + 1 − b, a drawn one half of that.
- Direct encounter: the match points the tied teams scored in their matches among themselves,
  applied only when every pair of them has met (FIDE tie-break regulations, direct encounter);
  otherwise it leaves the tie as it is and the next criterion decides.
- Team Sonneborn-Berger (SB): the sum over the matches of the opponent's final match points
  times the board points scored against it (FIDE Play-Off and Tie-Break Regulations C.07,
  extended Sonneborn-Berger EMGSB, art. 13.2). Its three siblings: EMMSB (the opponent's match
  points times the match points scored against it), EGMSB (the opponent's game points times the
  match points), EGGSB (game points times game points). A team competition here is a round
  robin, whose only unplayed rounds are the free rounds of an odd number of teams: they add
  nothing (C.07 art. 15.2).
- Teams equal on every criterion share the rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

__all__ = [
    "TEAM_TIEBREAKS", "MatchResult", "Scoring", "TableRow", "berlin_points", "cross_table", "division_table",
]

MATCH_POINTS, BOARD_POINTS, BERLIN, DIRECT, WINS, SONNEBORN = "MP", "BP", "BW", "DE", "W", "SB"
# Extended Sonneborn-Berger (FIDE C.07, team tie-breaks): E + the opponent's score (M match points,
# G game points) + the team's own result in the match against it; "SB" is EMGSB.
EXTENDED_SB = ("EMMSB", "EMGSB", "EGMSB", "EGGSB")
CRITERIA = (MATCH_POINTS, BOARD_POINTS, BERLIN, DIRECT, WINS, SONNEBORN, *EXTENDED_SB)
# The team tie-breaks a team competition's director lists (FIDE C.07 codes, after the match
# points): game points (art. 13.1, MPvGP), the extended Sonneborn-Berger (13.2), direct encounter
# of the tied teams (art. 6, on match points) and matches won (art. 7.1); -> the engine's criterion.
TEAM_TIEBREAKS = {"GP": BOARD_POINTS, **{code: code for code in EXTENDED_SB}, "DE": DIRECT, "WIN": WINS}


@dataclass(frozen=True)
class Scoring:
    """Match points for a won, drawn and lost match."""

    win: float = 2
    draw: float = 1
    loss: float = 0


@dataclass(frozen=True)
class MatchResult:
    """A finished match: ``boards[i]`` is board i + 1's (home, away) points; a board nobody
    played at all is (0, 0)."""

    home: Hashable
    away: Hashable
    boards: tuple[tuple[float, float], ...]

    # Summed once per match: a table with its rank after each round reads them hundreds of times.
    @cached_property
    def home_points(self) -> float:
        return sum(home for home, _away in self.boards)

    @cached_property
    def away_points(self) -> float:
        return sum(away for _home, away in self.boards)


@dataclass
class TableRow:
    team: Hashable
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: float = 0
    board_points: float = 0
    board_points_against: float = 0
    berlin: float = 0
    sonneborn: float = 0  # team Sonneborn-Berger (EMGSB)
    extended: dict[str, float] = field(default_factory=lambda: dict.fromkeys(EXTENDED_SB, 0.0))
    # Match points among the teams it was tied with (None: not applied to this team).
    direct: float | None = None
    criteria: dict[str, float] = field(default_factory=dict)

    def value(self, code: str) -> float:
        if code in EXTENDED_SB:
            return self.extended[code]
        return {
            MATCH_POINTS: self.match_points,
            BOARD_POINTS: self.board_points,
            BERLIN: self.berlin,
            WINS: self.won,
            SONNEBORN: self.sonneborn,
        }[code]


def berlin_points(boards: Sequence[tuple[float, float]], *, home: bool) -> float:
    """Berliner Wertung of one side of a match: board b of n won counts n + 1 − b, drawn half."""
    n = len(boards)
    return sum((n + 1 - b) * (pts[0] if home else pts[1]) for b, pts in enumerate(boards, start=1))


def _match_points(own: float, other: float, scoring: Scoring) -> float:
    return scoring.win if own > other else scoring.draw if own == other else scoring.loss


def _direct(group: list[TableRow], matches: Sequence[MatchResult], scoring: Scoring) -> dict | None:
    """{team: match points among ``group``} if every pair of the group has met, else None."""
    teams = {row.team for row in group}
    points: dict[Hashable, float] = dict.fromkeys(teams, 0)
    met: set[frozenset] = set()
    for match in matches:
        if match.home in teams and match.away in teams:
            met.add(frozenset((match.home, match.away)))
            home, away = match.home_points, match.away_points
            points[match.home] += _match_points(home, away, scoring)
            points[match.away] += _match_points(away, home, scoring)
    if any(frozenset(pair) not in met for pair in combinations(teams, 2)):
        return None
    return points


def _split(group: list[TableRow], criteria: Sequence[str], matches, scoring) -> list[list[TableRow]]:
    """``group`` (tied so far) ordered by the first criterion, its ties split by the rest."""
    if len(group) == 1 or not criteria:
        return [group]
    code, rest = criteria[0], criteria[1:]
    if code == DIRECT:
        direct = _direct(group, matches, scoring)
        if direct is None:
            return _split(group, rest, matches, scoring)
        for row in group:
            row.direct = direct[row.team]
        values = direct
    else:
        values = {row.team: row.value(code) for row in group}
    parts: dict[float, list[TableRow]] = defaultdict(list)
    for row in group:  # a stable grouping: within a part the given order stays
        parts[values[row.team]].append(row)
    ordered: list[list[TableRow]] = []
    for value in sorted(parts, reverse=True):
        ordered.extend(_split(parts[value], rest, matches, scoring))
    return ordered


def division_table(
    teams: Sequence[Hashable],
    matches: Sequence[MatchResult],
    *,
    scoring: Scoring = Scoring(),
    criteria: Sequence[str] = (MATCH_POINTS, BOARD_POINTS, BERLIN, DIRECT),
) -> list[TableRow]:
    """The ranked table of ``teams`` (given in their draw order, which orders teams that share a
    rank) from the finished ``matches``."""
    unknown = [code for code in criteria if code not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown standings criteria {unknown!r}")
    rows = {team: TableRow(team) for team in teams}
    for match in matches:
        home_points, away_points = match.home_points, match.away_points
        for team, own, other, is_home in (
            (match.home, home_points, away_points, True),
            (match.away, away_points, home_points, False),
        ):
            row = rows[team]
            row.played += 1
            row.won += own > other
            row.drawn += own == other
            row.lost += own < other
            row.match_points += _match_points(own, other, scoring)
            row.board_points += own
            row.board_points_against += other
            row.berlin += berlin_points(match.boards, home=is_home)
    for match in matches:  # the opponents' final scores: after the loop above
        for team, opponent, own, other in ((match.home, match.away, match.home_points, match.away_points),
                                           (match.away, match.home, match.away_points, match.home_points)):
            row, them = rows[team], rows[opponent]
            own_mp = _match_points(own, other, scoring)
            row.sonneborn += them.match_points * own
            products = {"EMMSB": them.match_points * own_mp, "EMGSB": them.match_points * own,
                        "EGMSB": them.board_points * own_mp, "EGGSB": them.board_points * own}
            for code, product in products.items():
                row.extended[code] += product
    ranked: list[TableRow] = []
    for part in _split(list(rows.values()), list(criteria), matches, scoring):
        rank = len(ranked) + 1
        for row in part:
            row.rank = rank
            ranked.append(row)
    for row in ranked:
        row.criteria = {code: (row.direct if code == DIRECT else row.value(code)) for code in criteria}
    return ranked


def cross_table(matches: Sequence[MatchResult]) -> dict[tuple[Hashable, Hashable], list[float]]:
    """{(team, opponent): the board points the team scored against it, match by match}."""
    cells: dict[tuple[Hashable, Hashable], list[float]] = defaultdict(list)
    for match in matches:
        cells[(match.home, match.away)].append(match.home_points)
        cells[(match.away, match.home)].append(match.away_points)
    return dict(cells)
