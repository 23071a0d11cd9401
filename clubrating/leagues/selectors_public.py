"""Reads of a division's public pages: the table, the cross table, the rounds with their match
cards and the players' statistics, from a fixed number of queries whatever the division's size
(its teams; its matches with lineups and games), the ranking done by ``standings`` and ``stats``."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from math import ceil

from django.db.models import QuerySet
from django.utils import timezone

from clubrating.leagues.division_matches import division_matches
from clubrating.leagues.models import Division, LeagueMatch, LeagueSeason, LeagueTeam, MatchStatus, Side
from clubrating.leagues.selectors import division_league_matches, division_teams, league_match_score
from clubrating.leagues.standings import MatchResult, Scoring, TableRow, cross_table, division_table
from clubrating.leagues.stats import BoardBest, BoardGame, PlayerLine, best_boards, player_lines
from clubrating.tournaments.models import Result
from clubrating.tournaments.selectors import MatchScore

__all__ = [
    "DivisionData",
    "ScoredMatch",
    "division_data",
    "division_round",
    "division_round_numbers",
    "match_result",
    "public_seasons",
]

# Games decided without play: they score, but are not rated and count in no performance.
FORFEITS = {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT}
HOME, AWAY = str(Side.HOME), str(Side.AWAY)  # plain texts: compared once per board of the season


def public_seasons() -> QuerySet[LeagueSeason]:
    """The seasons with their divisions, newest first."""
    return LeagueSeason.objects.prefetch_related("divisions")


@dataclass
class ScoredMatch:
    """A match of the division with its boards from the home team's side; ``result`` is set once
    the match counts in the table (its result entered, confirmed, disputed or decided)."""

    league: LeagueMatch
    score: MatchScore
    result: MatchResult | None
    home: LeagueTeam
    away: LeagueTeam

    @property
    def home_points(self) -> float | None:
        return None if self.result is None else self.result.home_points

    @property
    def away_points(self) -> float | None:
        return None if self.result is None else self.result.away_points


def match_result(league: LeagueMatch, score: MatchScore, home, away) -> MatchResult | None:
    """The match as the table counts it, None while its result is open. A team that did not
    appear loses every board, an empty board is lost by the side that left it empty: both already
    so in ``score`` (``league_match_score``)."""
    if league.status == MatchStatus.OPEN:
        return None
    return MatchResult(home, away, tuple(board.points or (0.0, 0.0) for board in score.boards))


@dataclass
class DivisionData:
    division: Division
    season: LeagueSeason
    teams: list[LeagueTeam]
    rounds: list[tuple[int, datetime.date | None, list[ScoredMatch]]]
    table: list[TableRow]
    results: list[MatchResult]  # the counted matches' results
    players: list[PlayerLine] = field(default_factory=list)
    best: dict[int, list[BoardBest]] = field(default_factory=dict)

    @cached_property
    def cross(self) -> dict[tuple[LeagueTeam, LeagueTeam], list[float]]:
        """{(team, opponent): the team's board points in each of their matches}, worked out
        for the pages that show the cross table only."""
        return cross_table(self.results)

    @property
    def matches(self) -> list[ScoredMatch]:
        return [match for _number, _date, matches in self.rounds for match in matches]

    @property
    def rounds_played(self) -> int:
        return sum(1 for _n, _d, matches in self.rounds if any(m.result for m in matches))

    def progress(self) -> tuple[list[int], list[tuple[LeagueTeam, list[int]]]]:
        """The rounds that have a counted match, and each team (in the order of the table) with
        its rank after each of them: ranked as the table, by the season's criteria, from the
        matches counted in that round and the rounds before."""
        counted: list[MatchResult] = []
        numbers: list[int] = []
        ranks: dict[int, list[int]] = {team.pk: [] for team in self.teams}
        for number, _date, matches in self.rounds:
            new = [m.result for m in matches if m.result is not None]
            if not new:
                continue
            counted.extend(_keyed(new))
            numbers.append(number)
            for row in _ranked(self.season, self.teams, counted):
                ranks[row.team].append(row.rank)
        return numbers, [(row.team, ranks[row.team.pk]) for row in self.table]

    def cross_rows(self) -> list[tuple[TableRow, list[list[float] | None]]]:
        """The cross table in the order of the table: each row's cells against every team in that
        order (None: the team itself)."""
        order = [row.team for row in self.table]
        return [
            (row, [None if other == row.team else self.cross.get((row.team, other), []) for other in order])
            for row in self.table
        ]


def _keyed(results: list[MatchResult]) -> list[MatchResult]:
    """``results`` between the teams' keys: the team-table engine hashes its teams thousands of
    times (the rank after each round ranks the table once per round), a key far cheaper than a
    model object."""
    return [MatchResult(result.home.pk, result.away.pk, result.boards) for result in results]


def _ranked(season: LeagueSeason, teams: list[LeagueTeam], keyed: list[MatchResult]) -> list[TableRow]:
    """The table of ``teams`` (rows with their keys as ``team``) from the ``keyed`` results, by
    the season's scoring and criteria: the one team-table engine."""
    return division_table(
        [team.pk for team in teams],
        keyed,
        scoring=Scoring(season.match_points_win, season.match_points_draw, season.match_points_loss),
        criteria=season.criteria,
    )


def _board_games(
    match: ScoredMatch, ratings: Mapping[int, tuple[float | None, float | None]]
) -> list[BoardGame]:
    """Both players' side of every board of a counted match. ``ratings``: {game id: (white's,
    black's rating of the match day)}."""
    games = []
    absent = match.league.absent
    home, away = match.home, match.away
    for board, points in zip(match.score.boards, match.result.boards, strict=True):
        game = board.game
        played = game is not None and not absent and game.result not in FORFEITS
        white, black = ratings.get(game.pk, (None, None)) if played else (None, None)
        for side, team, member, own in ((HOME, home, board.home, points[0]),
                                        (AWAY, away, board.away, points[1])):
            if member is None or (absent and absent == side):
                continue
            opponent_rating = (black if game.white_id == member.id else white) if played else None
            games.append(BoardGame(member, team, board.board, own, played, opponent_rating))
    return games


def _teams(division: Division) -> list[LeagueTeam]:
    return division_teams(division=division)


def _scored_rounds(
    division: Division, teams: list[LeagueTeam], round_number: int | None = None, members: bool = True,
    rows: dict | None = None, of_team: int | None = None,
) -> list[tuple[int, datetime.date | None, list[ScoredMatch]]]:
    """The division's rounds (or round ``round_number`` only) with their scored matches."""
    by_team = {team.team_id: team for team in teams}
    rounds: dict[int, tuple[datetime.date | None, list[ScoredMatch]]] = {}
    for read in division_matches(division=division, teams=teams, round_number=round_number, members=members,
                                 rows=rows, of_team=of_team):
        league, tm = read.league, read.league.match
        home, away = by_team[tm.home_team_id], by_team[tm.away_team_id]
        score = league_match_score(league, lineup=read.lineup, games=read.games)
        scored = ScoredMatch(league, score, match_result(league, score, home, away), home, away)
        rounds.setdefault(tm.round.number, (tm.round.date, []))[1].append(scored)
    return [(number, date, matches) for number, (date, matches) in sorted(rounds.items())]


def division_round(
    *, division: Division, number: int, rows: dict | None = None
) -> list[tuple[int, datetime.date | None, list[ScoredMatch]]]:
    """Round ``number`` of the division with its scored matches (``division_data``'s ``rounds``
    for that round alone): the rounds page shows one round and reads only its matches. ``rows``:
    as ``division_data``'s."""
    return _scored_rounds(division, _teams(division), number, rows=rows)


def division_round_numbers(*, division: Division) -> tuple[list[int], list[int]]:
    """(the division's round numbers, those with a match that counts in the table), from the
    matches' states (``division_league_matches``)."""
    numbers: set[int] = set()
    played: set[int] = set()
    for match in division_league_matches(division=division):
        number = match.match.round.number
        numbers.add(number)
        if match.status != MatchStatus.OPEN:  # as ``match_result``: the match counts once it is not open
            played.add(number)
    return sorted(numbers), sorted(played)


def division_data(
    *,
    division: Division,
    ratings: Callable[[list[tuple]], Mapping[int, tuple[float | None, float | None]]] | None = None,
    players: bool = False,
    members: bool = True,
    rows: dict | None = None,
    team: LeagueTeam | None = None,
) -> DivisionData:
    """Everything the division's pages show. Five queries (teams; matches with their round;
    lineups; games; their members: ``division_matches``). ``players``: also the players' statistics, with the
    players' ratings of the match day (the day the match starts, moved or not):
    ``ratings([(game id, white id, black id, match day)])``
    gives {game id: (white's, black's)}, read by the caller (the club side reads no ratings).
    ``members``: with the boards' players (without them, four queries: for the table alone,
    which names nobody; the boards' ``home`` and ``away`` are then None). ``rows``: the rows
    the division's tournament's version was read from (``tournaments.selectors.version_rows``),
    when the page has read it: its lineups and games are not read again. ``team``: the players'
    statistics of this team alone (its page), from its matches, naming its players only."""
    season = division.season
    teams = _teams(division)
    round_list = _scored_rounds(division, teams, members=members or players, rows=rows,
                                of_team=None if team is None else team.team_id)
    results = [m.result for _n, _d, matches in round_list for m in matches if m.result is not None]
    table = _ranked(season, teams, _keyed(results))
    by_key = {team.pk: team for team in teams}
    for row in table:
        row.team = by_key[row.team]
    data = DivisionData(division, season, teams, round_list, table, results)
    if players:
        counted = [match for match in data.matches
                   if match.result is not None and (team is None or team in (match.home, match.away))]
        games = []
        for match in counted:
            day = timezone.localdate(match.league.starts_at)
            games += [(b.game.pk, b.game.white_id, b.game.black_id, day) for b in match.score.boards
                      if b.game is not None]
        rated = ratings(games) if ratings is not None and games else {}
        board_games = [game for match in counted for game in _board_games(match, rated)]
        # Keyed by the players' and teams' keys (``id``: ``pk`` is a property, read 2,000 times
        # here): a model object hashes far slower than its key.
        data.players = player_lines(board_games, key=lambda game: (game.member.id, game.team.id))
        # The best board results count players who played at least half the rounds played there.
        data.best = best_boards(data.players, min_games=max(1, ceil(data.rounds_played / 2)))
    return data
