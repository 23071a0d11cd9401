"""Reads of the team leagues: who may act for a team or the league, what a user may see of a
match's lineups, the boards and score of a match, the league director's open work."""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, replace

from django.db.models import Prefetch, QuerySet

from clubrating.core.db import plain_rows, server_bound
from clubrating.leagues.models import (
    Captain,
    Division,
    LeagueMatch,
    LeagueSeason,
    LeagueTeam,
    MatchStatus,
    Side,
)
from clubrating.tournaments.models import Game, LineupEntry, Result
from clubrating.tournaments.selectors import MatchScore, match_score, tournament_version


def _active(user) -> bool:
    return getattr(user, "is_authenticated", False) and user.is_active


def is_league_director(user, season: LeagueSeason) -> bool:
    """The season's directors (its officials) and administrators. The seasons a user directs
    are read once per request (cached on the user object, as the roles are)."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    seasons = getattr(user, "_league_seasons", None)
    if seasons is None:
        seasons = user._league_seasons = set(user.directed_league_seasons.values_list("pk", flat=True))
    return season.pk in seasons


def is_captain(user, team: LeagueTeam) -> bool:
    """Whether ``user`` captains ``team``; his teams are read once per request."""
    if not _active(user):
        return False
    teams = getattr(user, "_league_captaincies", None)
    if teams is None:
        teams = user._league_captaincies = set(
            Captain.objects.filter(user=user).values_list("team_id", flat=True)
        )
    return team.pk in teams


def captained_teams(user) -> QuerySet[LeagueTeam]:
    """The teams ``user`` captains, newest season first."""
    if not _active(user):
        return LeagueTeam.objects.none()
    return (
        LeagueTeam.objects.filter(captains__user=user)
        .select_related("team", "club", "division__season")
        .order_by("-season__start_date", "division__level", "club__name", "number")
    )


def season_of(match: LeagueMatch) -> LeagueSeason:
    return match.match.round.tournament.division.season


def league_matches() -> QuerySet[LeagueMatch]:
    """League matches with what their cards show: teams, round, division, season, lineups and games."""
    return LeagueMatch.objects.select_related(
        "match__round__tournament__division__season",
        "match__home_team__league_team__club",
        "match__away_team__league_team__club",
    ).prefetch_related(
        Prefetch("match__lineup", queryset=LineupEntry.objects.select_related("member")),
        # By board alone, not the default order through rounds and tournaments (``division_matches``).
        Prefetch("match__games", queryset=Game.objects.select_related("white", "black").order_by("board")),
    )


def side_of(match: LeagueMatch, team: LeagueTeam) -> str | None:
    """Whether ``team`` plays ``match`` at home or away (None: not at all)."""
    if team.team_id == match.match.home_team_id:
        return Side.HOME
    if team.team_id == match.match.away_team_id:
        return Side.AWAY
    return None


def lineup_visible(*, match: LeagueMatch, side: str, user, now: datetime.datetime) -> bool:
    """A lineup is seen by its own captains and the league directors at once, by everyone else
    (the opponent too) once the lineup deadline has passed."""
    season = season_of(match)
    if now >= match.lineup_deadline(season):
        return True
    if is_league_director(user, season):
        return True
    team = (match.match.home_team if side == Side.HOME else match.match.away_team).league_team
    return is_captain(user, team)


def division_of(*, tournament_id: int) -> Division | None:
    """The league division the tournament backs (with its season and tournament), or None: the
    one answer to "is this tournament a league division?"."""
    return Division.objects.filter(tournament_id=tournament_id).select_related("season", "tournament").first()


def division_pk_of(*, tournament_id: int) -> int | None:
    """``division_of``'s key only: what a redirect to the league's pages needs, asked on every page
    of every tournament (one prepared statement on PostgreSQL)."""
    if server_bound():
        rows = plain_rows(_DIVISION_PK_SQL, [tournament_id])
        return rows[0][0] if rows else None
    return Division.objects.filter(tournament_id=tournament_id).values_list("pk", flat=True).first()


_DIVISION_PK_SQL = f"SELECT id FROM {Division._meta.db_table} WHERE tournament_id = %s"  # unique


def lineups_hidden_until(*, tournament_id: int) -> datetime.timedelta | None:
    """How long before a match of the league division backed by ``tournament_id`` its lineups
    stay hidden (the season's lineup deadline); None: not a league division."""
    division = division_of(tournament_id=tournament_id)
    return None if division is None else datetime.timedelta(hours=division.season.lineup_deadline_hours)


def hidden_games(*, tournament_id: int, now: datetime.datetime) -> set[int]:
    """The board games of a league division's matches whose lineup deadline has not passed yet:
    they tell both lineups, so the tournament's own pages, its API and its TRF file show them to
    nobody before then (the league's pages show each reader what ``lineup_visible`` allows).
    Empty for any other tournament. Two small queries."""
    before = lineups_hidden_until(tournament_id=tournament_id)
    if before is None:
        return set()
    return set(
        Game.objects.filter(
            team_match__round__tournament_id=tournament_id, team_match__league__starts_at__gt=now + before
        ).values_list("pk", flat=True)
    )


def page_reads(division: Division) -> Division:
    """``division``, read afresh for one page, keeping the rows the page reads more than once
    (its live check, its version and its tables): its matches and teams
    (``division_league_matches``, ``division_teams``). A division object not so marked reads
    them anew every time."""
    division.__dict__["_page_reads"] = {}
    return division


def kept_for_page(division: Division, key: str, read):
    """``read()``, once per page of ``division`` (``page_reads``) under ``key``."""
    kept = division.__dict__.get("_page_reads")
    if kept is None:
        return read()
    if key not in kept:
        kept[key] = read()
    return kept[key]


def division_league_matches(*, division: Division) -> list[LeagueMatch]:
    """The division's matches with their team match and round, by round and number: one query
    (once per page: ``page_reads``)."""
    return kept_for_page(division, "matches", lambda: list(
        LeagueMatch.objects.filter(match__round__tournament=division.tournament_id)
        .select_related("match__round")
        .order_by("match__round__number", "match__number")
    ))


def division_teams(*, division: Division) -> list[LeagueTeam]:
    """The division's teams with their tournament team and club, in their draw order: one
    query (once per page: ``page_reads``)."""
    return kept_for_page(division, "teams", lambda: list(
        LeagueTeam.objects.filter(division=division)
        .select_related("team", "club")
        .order_by("team__start_rank", "team__name", "pk")
    ))


def _fields(objects: list, model) -> list[tuple]:
    """The objects' columns as ``values_list()`` reads them, by key."""
    names = [f.attname for f in model._meta.concrete_fields]
    return sorted(tuple(getattr(obj, name) for name in names) for obj in objects)


def division_live_state(*, division: Division, now: datetime.datetime) -> tuple[str, bool]:
    """(state, running): what a division's live pages show beyond its games' results (each
    match's state, a team that did not appear, the lineups submitted and whether they are public
    yet), and whether a match has started and waits for its result or its confirmation. The
    matches of ``division_league_matches``."""
    before = datetime.timedelta(hours=division.season.lineup_deadline_hours)
    rows = sorted((m.pk, m.status, m.absent, m.home_lineup_at, m.away_lineup_at, m.starts_at)
                  for m in division_league_matches(division=division))
    state = [row[:5] + (now >= row[5] - before,) for row in rows]
    waiting = (MatchStatus.OPEN, MatchStatus.ENTERED, MatchStatus.DISPUTED)
    running = any(status in waiting and starts_at <= now for _pk, status, *_rest, starts_at in rows)
    return repr(state), running


def division_version(*, division: Division, now: datetime.datetime) -> str:
    """A version of everything a division's pages show of the league's own rows (the season, the
    division, its teams, its matches with their states and lineups, whether each lineup is public
    yet) beside the rows of its tournament (``tournament_version``): it changes with any save of
    them, whatever service, import or admin edit made it. A page that shows rows of another
    league model adds them here."""
    state, _running = division_live_state(division=division, now=now)
    rows = [
        [getattr(division.season, f.attname) for f in LeagueSeason._meta.concrete_fields],
        [getattr(division, f.attname) for f in Division._meta.concrete_fields],
        _fields(division_teams(division=division), LeagueTeam),
        _fields(division_league_matches(division=division), LeagueMatch),
        state, tournament_version(tournament=division.tournament),
    ]
    return hashlib.sha1(repr(rows).encode()).hexdigest()[:20]


def league_match_score(match: LeagueMatch, *, lineup=None, games=None) -> MatchScore:
    """The boards and board points of a match; once its result is entered an empty board is lost
    by forfeit and a team that did not appear loses every board, n : 0 (docs/rules.md, "Team
    league tables, forfeits"). Reads the lineups and games as ``league_matches`` prefetches them,
    or ``lineup`` and ``games`` as plain rows (``division_matches``)."""
    over = match.status != MatchStatus.OPEN
    scored = match_score(match.match, over=over, lineup=lineup, games=games)
    if over and match.ineligible_side and not match.absent:
        return _ineligible(match, scored)
    if not (over and match.absent):
        return scored
    won = (0.0, 1.0) if match.absent == Side.HOME else (1.0, 0.0)
    boards = [replace(board, points=won) for board in scored.boards]
    return MatchScore(scored.match, boards, won[0] * len(boards), won[1] * len(boards), True)


def _ineligible(match: LeagueMatch, scored: MatchScore) -> MatchScore:
    """A team that lined up an ineligible player loses his board (and, by the season's rule,
    every board below it) and the season's deduction of board points, down to 0 in the match
    (docs/rules.md, "The state federations' league rules"). The games keep their results."""
    season = season_of(match)
    guilty = 0 if match.ineligible_side == Side.HOME else 1
    lost = (0.0, 1.0) if guilty == 0 else (1.0, 0.0)
    first = match.ineligible_board or 1
    boards = []
    for board in scored.boards:
        if board.board == first or (season.ineligible_boards_below and board.board > first):
            board = replace(board, points=lost)
        boards.append(board)
    deduction = float(season.ineligible_deduction)
    for index in range(len(boards) - 1, -1, -1):  # from the last board up
        points = boards[index].points
        if deduction <= 0 or points is None or points[guilty] <= 0:
            continue
        taken = min(points[guilty], deduction)
        deduction -= taken
        new = list(points)
        new[guilty] -= taken
        boards[index] = replace(boards[index], points=(new[0], new[1]))
    home = sum(b.points[0] for b in boards if b.points)
    away = sum(b.points[1] for b in boards if b.points)
    return MatchScore(scored.match, boards, home, away, scored.finished)


@dataclass
class DirectorQueue:
    """What waits for the league director: disputed results, matches started without a complete
    result, results entered but not confirmed yet."""

    disputed: list[LeagueMatch]
    missing: list[LeagueMatch]
    unconfirmed: list[LeagueMatch]

    @property
    def count(self) -> int:
        return len(self.disputed) + len(self.missing) + len(self.unconfirmed)


def director_queue(*, season: LeagueSeason, now: datetime.datetime) -> DirectorQueue:
    matches = (
        league_matches()
        .filter(match__round__tournament__division__season=season)
        .order_by("starts_at", "match__round__tournament__division__level", "match__number")
    )
    disputed = list(matches.filter(status=MatchStatus.DISPUTED))
    missing = list(matches.filter(status=MatchStatus.OPEN, starts_at__lte=now))
    unconfirmed = list(matches.filter(status=MatchStatus.ENTERED))
    return DirectorQueue(disputed, missing, unconfirmed)


def division_rounds(*, division: Division) -> list[tuple[int, list[LeagueMatch]]]:
    """The division's matches by round."""
    rounds: dict[int, list[LeagueMatch]] = {}
    for match in (
        league_matches()
        .filter(match__round__tournament=division.tournament_id)
        .order_by("match__round__number", "match__number")
    ):
        rounds.setdefault(match.match.round.number, []).append(match)
    return sorted(rounds.items())


# A result read from the other side: a match card reads each board from the home player's side
# (home team left, its score first), the game stores it by colour.
_REVERSED = {
    Result.WHITE_WINS: Result.BLACK_WINS,
    Result.BLACK_WINS: Result.WHITE_WINS,
    Result.WHITE_FORFEIT_WIN: Result.BLACK_FORFEIT_WIN,
    Result.BLACK_FORFEIT_WIN: Result.WHITE_FORFEIT_WIN,
}


def home_reading(result: str, *, home_white: bool) -> str:
    """A game's result (by colour) as the match card reads it, from the home player's side; and
    back (the reading is its own inverse)."""
    return result if home_white else _REVERSED.get(result, result)


def board_reading(board) -> str:
    """A board of ``match_score`` (``MatchBoard``) as a result code from the home side: the game's
    result read so, an empty board's forfeit ("+-" won by the home team), "" while open."""
    if board.game is not None:
        return home_reading(board.game.result, home_white=bool(board.home_white))
    if board.points is None:
        return ""
    return Result.WHITE_FORFEIT_WIN if board.points[0] else Result.BLACK_FORFEIT_WIN


def board_games(match: LeagueMatch) -> dict[int, Game]:
    """{board of the match (1..boards): its game}; reads the match's games (prefetched or not)."""
    tm = match.match
    offset = (tm.number - 1) * tm.boards  # tournaments.services.lineup_set numbers the games so
    return {game.board - offset: game for game in tm.games.all()}


def games_complete(match: LeagueMatch) -> bool:
    """Every board game of the match has a result (read from the prefetched games)."""
    return all(game.result != Result.NOT_PLAYED for game in match.match.games.all())
