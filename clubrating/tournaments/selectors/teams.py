"""Team competitions: match scores, the matches per round and the team table."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet

from clubrating.clubs.models import Member
from clubrating.tournaments import team_table
from clubrating.tournaments.models import (
    RESULT_POINTS,
    RESULT_SYMBOLS,
    Game,
    LineupEntry,
    Result,
    Round,
    Team,
    TeamMatch,
    Tournament,
)
from clubrating.tournaments.team_table import MatchResult, division_table
from clubrating.tournaments.tiebreaks import RECOMMENDED_TEAM, UnknownTiebreak, parse_team_tiebreaks


@dataclass
class MatchBoard:
    board: int
    home: Member | None
    away: Member | None
    game: Game | None
    home_white: bool | None  # None until the game exists
    points: tuple[float, float] | None  # (home, away); None until the game has a result

    @property
    def result(self) -> str:
        """From the home team's side, e.g. "½–½", "+–−"; "" while not played."""
        if self.points is None:
            return ""
        if self.game is None:  # an empty board, lost by forfeit
            return "+–−" if self.points[0] else "−–+"
        white, black = RESULT_SYMBOLS[self.game.result]
        return f"{white}–{black}" if self.home_white else f"{black}–{white}"


@dataclass
class MatchScore:
    match: TeamMatch
    boards: list[MatchBoard]
    home_points: float
    away_points: float
    finished: bool  # every game of the match has a result

    @property
    def scored(self) -> bool:
        """Whether any board has a result yet (before, the score is not 0 : 0 but none)."""
        return self.finished or any(board.points is not None for board in self.boards)


def match_score(match: TeamMatch, *, over: bool = False, lineup=None, games=None) -> MatchScore:
    """The boards of a match from the home team's side and the board points of both teams.

    ``over``: the match is over (a league match whose result was entered), so a board where only
    one team had a player is won by that team by forfeit, and the match counts as finished even
    if a team lined up nobody (FIDE team practice: an empty board is lost by default).

    Reads ``match.lineup`` (with members) and ``match.games`` as prefetched by the caller, or
    ``lineup`` and ``games`` when given: plain rows with the same attributes (a page that shows
    hundreds of boards reads them without building a model object per row)."""
    lineup = list(match.lineup.all()) if lineup is None else lineup
    home = {e.board: e.member for e in lineup if e.team_id == match.home_team_id}
    away = {e.board: e.member for e in lineup if e.team_id == match.away_team_id}
    home_ids = {e.member_id for e in lineup if e.team_id == match.home_team_id}
    offset = (match.number - 1) * match.boards  # services.lineup_set numbers the games so
    games = {g.board - offset: g for g in (match.games.all() if games is None else games)}
    boards, home_points, away_points = [], 0.0, 0.0
    for board in range(1, match.boards + 1):
        game = games.get(board)
        home_white = None if game is None else game.white_id in home_ids
        points = None
        if game is not None and game.result != Result.NOT_PLAYED:
            white, black = RESULT_POINTS[game.result]
            points = (white, black) if home_white else (black, white)
        elif game is None and over and (board in home) != (board in away):
            points = (1.0, 0.0) if board in home else (0.0, 1.0)
        if points is not None:
            home_points += points[0]
            away_points += points[1]
        boards.append(MatchBoard(board, home.get(board), away.get(board), game, home_white, points))
    finished = (bool(games) or over) and all(g.result != Result.NOT_PLAYED for g in games.values())
    return MatchScore(match, boards, home_points, away_points, finished)


def _team_matches() -> QuerySet[TeamMatch]:
    return TeamMatch.objects.select_related("home_team", "away_team").prefetch_related(
        Prefetch("lineup", queryset=LineupEntry.objects.select_related("member")), "games",
    )


def team_match_rounds(*, tournament: Tournament) -> list[tuple[Round, list[MatchScore]]]:
    """The rounds that have team matches, each with its scored matches. Four queries."""
    rounds = (
        tournament.rounds.filter(team_matches__isnull=False).distinct().order_by("number")
        .prefetch_related(Prefetch("team_matches", queryset=_team_matches().order_by("number")))
    )
    return [(rnd, [match_score(m) for m in rnd.team_matches.all()]) for rnd in rounds]


@dataclass
class TeamStandingRow:
    rank: int
    team: Team
    match_points: int
    board_points: float
    sonneborn_berger: float
    # The team tie-breaks' values in the order of ``team_tiebreak_codes`` (None: a direct
    # encounter that did not apply to the team).
    tiebreaks: list[float | None] = field(default_factory=list)


def team_tiebreak_codes(*, tournament: Tournament) -> list[str]:
    """The team competition's team tie-breaks in its order (FIDE C.07 team codes); a list that
    cannot be read (stored before the check) falls back to what every team competition had."""
    try:
        return parse_team_tiebreaks(tournament.team_tiebreaks)
    except UnknownTiebreak:
        return parse_team_tiebreaks(RECOMMENDED_TEAM)


def team_standings(*, tournament: Tournament) -> list[TeamStandingRow]:
    """Match points (2 win, 1 draw), then the tournament's team tie-breaks in its order
    (``team_tiebreak_codes``: game points, the extended Sonneborn-Berger, direct encounter, matches
    won), ranked by the one team-table engine (``team_table``, a league's too); teams equal on
    all share the rank. Board points and team Sonneborn-Berger (EMGSB) come with every row.
    Four queries."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("start_rank", "name"))
    results = []
    for match in _team_matches().filter(round__tournament=tournament):
        scored = match_score(match)
        if scored.finished:
            results.append(MatchResult(match.home_team_id, match.away_team_id, tuple(
                board.points or (0.0, 0.0) for board in scored.boards)))
    by_pk = {team.pk: team for team in teams}
    criteria = [team_table.TEAM_TIEBREAKS[code] for code in team_tiebreak_codes(tournament=tournament)]
    table = division_table([team.pk for team in teams], results,
                           criteria=(team_table.MATCH_POINTS, *criteria))
    return [TeamStandingRow(row.rank, by_pk[row.team], int(row.match_points), row.board_points, row.sonneborn,
                            [row.criteria[criterion] for criterion in criteria])
            for row in table]
