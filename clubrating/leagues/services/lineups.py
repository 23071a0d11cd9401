"""A team's lineup for a match: submitted by its captain, checked against the roster rules.

Every service takes keyword arguments, runs in one transaction and raises ``LeagueRefused`` (a
``Refused``) with a translated message when the request does not fit; nothing is changed then.
Who may act is checked here: a team's captains for their team, the season's directors for all.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from clubrating.leagues.eligibility import lineup_problems
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import (
    LeagueMatch,
    LeagueTeam,
    MatchEvent,
    MatchEventKind,
    MatchStatus,
    Roster,
    Side,
)
from clubrating.leagues.selectors import is_captain, is_league_director, season_of, side_of
from clubrating.leagues.services.season import _now
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import LineupEntry
from clubrating.tournaments.services import lineup_set


class LineupRefused(LeagueRefused):
    """A lineup that breaks the roster rules; ``problems`` lists each broken rule."""

    def __init__(self, problems: list[str]):
        super().__init__(" ".join(problems), code="ineligible")
        self.problems = problems


def _acting_for(match: LeagueMatch, team: LeagueTeam, user) -> bool:
    """Whether ``user`` acts as the league director (True) or as ``team``'s captain (False);
    refused when he is neither."""
    if is_league_director(user, season_of(match)):
        return True
    if is_captain(user, team):
        return False
    raise LeagueRefused(
        _("Only a captain of %(team)s or the league director may do this.") % {"team": team}, code="forbidden"
    )


@transaction.atomic
def lineup_submit(
    *,
    match: LeagueMatch,
    team: LeagueTeam,
    members: list[Member | None],
    user,
    now: datetime.datetime | None = None,
    ratings: dict[int, int] | None = None,
) -> list[LineupEntry]:
    """Submit ``team``'s lineup for ``match`` (board 1 first, None an empty board). A captain
    submits it before the lineup deadline; the league director may set it until results are
    entered. Refused with every broken roster rule (``LineupRefused``)."""
    match = LeagueMatch.objects.select_for_update().get(pk=match.pk)
    season = season_of(match)
    _acting_for(match, team, user)  # nobody else holds the club's lock below
    # One lineup of a club at a time: the check that nobody plays two matches of one round reads
    # the club's other lineups, which a second captain of the club may be saving meanwhile.
    list(Roster.objects.select_for_update().filter(season=season, club_id=team.club_id).values_list("pk"))
    problems = lineup_check(match=match, team=team, members=members, user=user, now=now, ratings=ratings)
    if problems:
        raise LineupRefused(problems)
    side = side_of(match, team)
    now = _now(now)
    try:
        entries = lineup_set(match=match.match, team=team.team, members=members)
    except TournamentRefused as refusal:
        raise LeagueRefused(refusal.message) from refusal
    # The board games count on the match day (the national rating valid that day).
    match.match.games.update(date=timezone.localdate(match.starts_at))
    field = "home_lineup_at" if side == Side.HOME else "away_lineup_at"
    setattr(match, field, now)
    match.save(update_fields=[field])
    MatchEvent.objects.create(match=match, at=now, kind=MatchEventKind.LINEUP, team=team, by=user)
    return entries


def lineup_check(
    *,
    match: LeagueMatch,
    team: LeagueTeam,
    members: list[Member | None],
    user,
    now: datetime.datetime | None = None,
    ratings: dict[int, int] | None = None,
) -> list[str]:
    """What ``lineup_submit`` checks, without saving: refused (``LeagueRefused``) when ``user``
    may not set the lineup now; else the translated reasons the lineup breaks the season's rules
    (empty when it may be submitted). The lineup page asks it while the captain chooses."""
    side = side_of(match, team)
    if side is None:
        raise LeagueRefused(_("%(team)s does not play in this match.") % {"team": team})
    director = _acting_for(match, team, user)
    season = season_of(match)
    now = _now(now)
    if not director and now >= match.lineup_deadline(season):
        deadline = timezone.localtime(match.lineup_deadline(season))
        raise LeagueRefused(
            _("The lineup deadline passed on %(date)s at %(time)s; ask the league director.")
            % {"date": date_format(deadline, "SHORT_DATE_FORMAT"), "time": time_format(deadline, "H:i")},
            code="deadline",
        )
    if match.status != MatchStatus.OPEN:
        raise LeagueRefused(_("This match has its result already; its lineups cannot be changed."))
    division = match.match.round.tournament.division
    if len(members) > division.boards:
        raise LeagueRefused(_("This match has only %(boards)d boards.") % {"boards": division.boards})
    if not any(m is not None for m in members):
        raise LeagueRefused(_("Line up at least one player."))
    return lineup_problems(match=match, team=team, members=members, ratings=ratings)
