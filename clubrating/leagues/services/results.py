"""A match's results: entered, confirmed or disputed by the captains, decided by the league directors.

Every service takes keyword arguments, runs in one transaction and raises ``LeagueRefused`` (a
``Refused``) with a translated message when the request does not fit; nothing is changed then.
Who may act is checked here: a team's captains for their team, the season's directors for all.

Board games are ordinary games of the division's team tournament. A result is written through
``record``, by default the one owner of recording a result
(``clubrating.tournaments.recording.game_result_record``: checked, written and rated), so a
league game is rated on entry like any other and its changes stay in the game's history;
forfeits are scored but not rated.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import LeagueMatch, LeagueTeam, MatchEvent, MatchEventKind, MatchStatus, Side
from clubrating.leagues.selectors import board_games, is_captain, is_league_director, season_of
from clubrating.leagues.services.lineups import _acting_for
from clubrating.leagues.services.season import _now
from clubrating.tournaments.models import Game, Result
from clubrating.tournaments.recording import game_result_record

# The result service: ``record(game=…, result=…, user=…, reason=…)`` writes and rates a result.
RecordResult = Callable[..., Game]


def _forfeit_against(game: Game, absent_ids: set[int]) -> str:
    """The forfeit result of a game whose one side did not appear."""
    if game.white_id in absent_ids and game.black_id in absent_ids:
        return Result.DOUBLE_FORFEIT
    return Result.BLACK_FORFEIT_WIN if game.white_id in absent_ids else Result.WHITE_FORFEIT_WIN


def _results_write(
    match: LeagueMatch,
    results: dict[int, str],
    absent: str,
    user,
    record: RecordResult,
    reason: str,
    seen: dict[int, str] | None = None,
) -> None:
    """Write the board results ``{board: result}`` (board 1..boards of the match) through the
    result service; with ``absent`` every game of that side is lost by forfeit. ``seen``: {board:
    the result the user saw}; a board that holds another one now was saved by someone else
    meanwhile and is refused (``code="stale"``), not overwritten."""
    tm = match.match
    games = board_games(match)
    unknown = [board for board in results if board not in games]
    if unknown:
        raise LeagueRefused(
            _("Board %(board)d has no game: both teams need a player there.") % {"board": min(unknown)}
        )
    if absent not in ("", *Side.values):
        raise LeagueRefused(_("Choose the team that did not appear from those offered."))
    wanted = dict(results)
    if absent:
        team_id = tm.home_team_id if absent == Side.HOME else tm.away_team_id
        absent_ids = set(tm.lineup.filter(team_id=team_id).values_list("member_id", flat=True))
        wanted = {board: _forfeit_against(game, absent_ids) for board, game in games.items()}
    for board in sorted(wanted):
        if wanted[board] not in Result.values:
            raise LeagueRefused(_("Board %(board)d: choose one of the results offered.") % {"board": board})
        game = games[board]
        if game.result != wanted[board]:
            extra = {} if seen is None or board not in seen else {"seen": seen[board]}
            try:
                record(game=game, result=wanted[board], user=user, reason=reason, **extra)
            except Refused as refusal:  # a closed rating period, a pairing conflict
                raise LeagueRefused(
                    _("Board %(board)d: %(error)s") % {"board": board, "error": refusal.message},
                    code=refusal.code,
                ) from refusal
    if absent != match.absent:
        match.absent = absent
        match.save(update_fields=["absent"])


def _complete(match: LeagueMatch) -> bool:
    return not match.match.games.filter(result=Result.NOT_PLAYED).exists()


@transaction.atomic
def match_results_enter(
    *,
    match: LeagueMatch,
    results: dict[int, str],
    user,
    record: RecordResult = game_result_record,
    absent: str = "",
    seen: dict[int, str] | None = None,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The home captain enters board results (some or all, as the games end), each rated at once;
    ``absent`` ("home"/"away") records a team that did not appear. Once every board has its
    result the match is entered and waits for the away captain's confirmation. The home team
    may correct its entry until then. ``seen``: {board: the result shown when the entry began}; a
    board saved by someone else meanwhile is refused, and nothing is saved."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    home = match.match.home_team.league_team
    director = _acting_for(match, home, user)
    given, now = now, _now(now)
    if not director and now < match.starts_at:
        raise LeagueRefused(_("Results can be entered once the match has started."))
    if match.status not in (MatchStatus.OPEN, MatchStatus.ENTERED):
        raise LeagueRefused(
            _("This result has been %(status)s; only the league director can change it now.")
            % {"status": match.get_status_display()},
            code="closed",
        )
    if not match.match.lineup.exists():
        raise LeagueRefused(_("Neither team has a lineup: there is no result to enter."))
    _results_write(match, results, absent, user, record, reason="", seen=seen)
    if given is None:  # the step is dated after the board results it completes (their history)
        now = timezone.now()
    if match.status == MatchStatus.OPEN and _complete(match):
        match.status, match.entered_at, match.entered_by = MatchStatus.ENTERED, now, user
        match.save(update_fields=["status", "entered_at", "entered_by"])
        MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.ENTERED, team=home, by=user)
        if absent:
            MatchEvent.objects.create(
                match=match,
                at=now,
                kind=MatchEventKind.ABSENT,
                team=(home if absent == Side.HOME else match.match.away_team.league_team),
                by=user,
            )
    return match


def _away_step(match: LeagueMatch, user) -> LeagueTeam:
    away = match.match.away_team.league_team
    director = is_league_director(user, season_of(match))
    if not is_captain(user, away) and not director:
        raise LeagueRefused(
            _("Only a captain of %(team)s can confirm or dispute this result.") % {"team": away},
            code="forbidden",
        )
    if not director and match.entered_by_id is not None and match.entered_by_id == user.pk:
        # A captain of both teams (a club derby) does not confirm his own entry.
        raise LeagueRefused(
            _(
                "You entered this result yourself: another captain of %(team)s confirms or disputes it, "
                "or the league director decides."
            )
            % {"team": away},
            code="forbidden",
        )
    if match.status != MatchStatus.ENTERED:
        raise LeagueRefused(
            _(
                "Only a result entered by the home team and not yet confirmed or disputed can "
                "be confirmed or disputed."
            ),
            code="state",
        )
    return away


@transaction.atomic
def match_confirm(*, match: LeagueMatch, user, now: datetime.datetime | None = None) -> LeagueMatch:
    """The away captain confirms the entered result."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    away = _away_step(match, user)
    now = _now(now)
    match.status, match.confirmed_at, match.confirmed_by = MatchStatus.CONFIRMED, now, user
    match.save(update_fields=["status", "confirmed_at", "confirmed_by"])
    MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.CONFIRMED, team=away, by=user)
    return match


@transaction.atomic
def match_dispute(
    *, match: LeagueMatch, user, reason: str, now: datetime.datetime | None = None
) -> LeagueMatch:
    """The away captain disputes the entered result, saying why. The result stays rated as
    entered until the league director decides."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    away = _away_step(match, user)
    now = _now(now)
    reason = reason.strip()
    if not reason:
        raise LeagueRefused(_("Say why you dispute the result."), field="reason")
    match.status, match.disputed_at, match.disputed_by = MatchStatus.DISPUTED, now, user
    match.dispute_reason = reason[:500]
    match.save(update_fields=["status", "disputed_at", "disputed_by", "dispute_reason"])
    MatchEvent.objects.create(
        match=match, at=now, kind=MatchEventKind.DISPUTED, team=away, by=user, reason=reason[:500]
    )
    return match


@transaction.atomic
def match_decide(
    *,
    match: LeagueMatch,
    user,
    reason: str,
    record: RecordResult = game_result_record,
    results: dict[int, str] | None = None,
    absent: str = "",
    seen: dict[int, str] | None = None,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The league director decides a match (a dispute, a missing result, any correction): the
    board results ``results`` are written with ``reason`` in their history and rated as any
    correction; the match is decided. Every board needs a result afterwards. ``seen`` as for
    ``match_results_enter``."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    if not is_league_director(user, season_of(match)):
        raise LeagueRefused(_("Only the league director can decide a match."), code="forbidden")
    reason = reason.strip()[:500]
    if not reason:
        raise LeagueRefused(_("Give the reason of the decision."), field="reason")
    if not absent and not match.match.lineup.exists():
        # Without any lineup the match would count as a 0 : 0 draw for both teams.
        raise LeagueRefused(
            _("Neither team has a lineup: name the team that did not appear."), field="absent"
        )
    _results_write(match, results or {}, absent, user, record, reason=reason, seen=seen)
    if not _complete(match):
        raise LeagueRefused(_("Every board needs a result before the match can be decided."))
    now = _now(now)  # (after the board results it decides: their history comes first)
    if match.entered_at is None:
        match.entered_at, match.entered_by = now, user
    match.status, match.decided_at, match.decided_by, match.decision_reason = (
        MatchStatus.DECIDED,
        now,
        user,
        reason,
    )
    match.save(
        update_fields=["status", "entered_at", "entered_by", "decided_at", "decided_by", "decision_reason"]
    )
    MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.DECIDED, by=user, reason=reason)
    return match


@transaction.atomic
def match_ineligible(
    *,
    match: LeagueMatch,
    side: str,
    board: int,
    user,
    reason: str,
    now: datetime.datetime | None = None,
) -> LeagueMatch:
    """The league director finds that ``side``'s player on ``board`` was not eligible: that board
    (and by the season's rule every board below it) counts as lost, less the season's deduction
    of board points; the games keep their results for the ratings (docs/rules.md, "The state
    federations' league rules"). The match is decided with ``reason``."""
    match = LeagueMatch.objects.select_for_update().select_related("match").get(pk=match.pk)
    season = season_of(match)
    if not is_league_director(user, season):
        raise LeagueRefused(_("Only the league director can decide a match."), code="forbidden")
    reason = reason.strip()[:500]
    if not reason:
        raise LeagueRefused(_("Give the reason of the decision."), field="reason")
    if side not in Side.values:
        raise LeagueRefused(_("Name the team that lined up the ineligible player."), field="side")
    division = match.match.round.tournament.division
    if not 1 <= board <= division.boards:
        raise LeagueRefused(
            _("This match has only %(boards)d boards.") % {"boards": division.boards}, field="board"
        )
    if match.status == MatchStatus.OPEN:
        raise LeagueRefused(_("The match has no result yet."))
    now = _now(now)
    match.ineligible_side, match.ineligible_board = side, board
    match.status, match.decided_at, match.decided_by, match.decision_reason = (
        MatchStatus.DECIDED,
        now,
        user,
        reason,
    )
    match.save(
        update_fields=[
            "ineligible_side", "ineligible_board", "status", "decided_at", "decided_by", "decision_reason"
        ]
    )
    team = match.match.home_team.league_team if side == Side.HOME else match.match.away_team.league_team
    MatchEvent.objects.create(
        match=match, at=now, kind=MatchEventKind.DECIDED, team=team, by=user, reason=reason
    )
    return match
