"""A club's roster for the season: setting it, adding, removing and moving players.

Every service takes keyword arguments, runs in one transaction and raises ``LeagueRefused`` (a
``Refused``) with a translated message when the request does not fit; nothing is changed then.
Who may act is checked here: a team's captains for their team, the season's directors for all.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import (
    LeagueSeason,
    LeagueTeam,
    Roster,
    RosterChange,
    RosterChangeKind,
    RosterEntry,
)
from clubrating.leagues.selectors import is_league_director
from clubrating.tournaments.models import LineupEntry


def _roster_teams_check(season: LeagueSeason, club: Club, teams: list[LeagueTeam]) -> None:
    for team in teams:
        if team.season_id != season.pk or team.club_id != club.pk:
            raise LeagueRefused(
                _("%(team)s is not a team of %(club)s in this season.") % {"team": team, "club": club}
            )
    numbers = [team.number for team in teams]
    if numbers != sorted(numbers):
        raise LeagueRefused(
            _(
                "The teams take consecutive blocks of the roster: the players of team 1 "
                "first, then those of team 2, and so on."
            )
        )


def _roster_director(season: LeagueSeason, user) -> None:
    """Changes of a roster once the season runs are the league director's (dated and logged)."""
    if not is_league_director(user, season):
        raise LeagueRefused(_("Only the league director can change a roster."), code="forbidden")


def _not_ahead(on: datetime.date, today: datetime.date | None) -> None:
    """A move or a withdrawal takes effect when it is recorded: dated today or earlier."""
    today = today or timezone.localdate()
    if on > today:
        raise LeagueRefused(
            _("A roster change takes effect when it is recorded: date it %(today)s or earlier.")
            % {"today": date_format(today, "SHORT_DATE_FORMAT")},
            field="on",
        )


@transaction.atomic
def roster_set(
    *, season: LeagueSeason, club: Club, entries: list[tuple[Member, LeagueTeam]], on: datetime.date
) -> Roster:
    """The club's ranked roster for the season, best first, each player with his own team;
    everyone registered ``on``. Only before the club's first lineup: later changes are late
    registrations (``roster_add``), dated and logged."""
    if LineupEntry.objects.filter(team__league_team__season=season, team__league_team__club=club).exists():
        raise LeagueRefused(
            _("%(club)s has lined up players already; add late registrations one by one.") % {"club": club}
        )
    members = [member.pk for member, _team in entries]
    if len(set(members)) != len(members):
        raise LeagueRefused(_("A player can be on the roster only once."))
    _roster_teams_check(season, club, [team for _member, team in entries])
    roster, _created = Roster.objects.get_or_create(season=season, club=club)
    roster.entries.all().delete()
    RosterEntry.objects.bulk_create(
        [
            RosterEntry(roster=roster, rank=rank, member=member, team=team, added_on=on)
            for rank, (member, team) in enumerate(entries, start=1)
        ]
    )
    return roster


@transaction.atomic
def roster_add(
    *,
    season: LeagueSeason,
    club: Club,
    member: Member,
    team: LeagueTeam,
    on: datetime.date,
    user,
    reason: str = "",
) -> RosterEntry:
    """The league director registers a player late: he joins the end of ``team``'s block (the
    players below move one rank down) and may play from ``on``. The change is logged."""
    _roster_director(season, user)
    _roster_teams_check(season, club, [team])
    roster, _created = Roster.objects.select_for_update().get_or_create(season=season, club=club)
    if roster.entries.filter(member=member).exists():
        raise LeagueRefused(_("%(player)s is on the roster already.") % {"player": member.full_name})
    if on < season.start_date:
        raise LeagueRefused(_("A late registration is dated within the season."), field="on")
    block_end = roster.entries.filter(team__number__lte=team.number).aggregate(last=Max("rank"))["last"] or 0
    below = roster.entries.filter(rank__gt=block_end)
    # Two steps, so that no two entries hold one rank in between (the ranks are unique).
    below.update(rank=F("rank") + 10000)
    roster.entries.filter(rank__gt=10000).update(rank=F("rank") - 9999)
    entry = RosterEntry.objects.create(
        roster=roster, rank=block_end + 1, member=member, team=team, added_on=on
    )
    RosterChange.objects.create(
        roster=roster,
        member=member,
        kind=RosterChangeKind.ADDED,
        valid_from=on,
        new_rank=entry.rank,
        new_team=team,
        reason=reason.strip(),
        recorded_by=user,
    )
    return entry


@transaction.atomic
def roster_remove(
    *,
    season: LeagueSeason,
    club: Club,
    member: Member,
    on: datetime.date,
    user,
    reason: str = "",
    today: datetime.date | None = None,
) -> None:
    """The league director takes a player off the roster from ``on`` (a withdrawal, a change of
    club; today or earlier: it takes effect at once): the players below move up one rank; the
    games he played stay. The change is logged."""
    _roster_director(season, user)
    roster = Roster.objects.select_for_update().filter(season=season, club=club).first()
    entry = None if roster is None else roster.entries.filter(member=member).select_related("team").first()
    if entry is None:
        raise LeagueRefused(
            _("%(player)s is not on the roster of %(club)s.") % {"player": member.full_name, "club": club}
        )
    if on < season.start_date:
        raise LeagueRefused(_("A roster change is dated within the season."), field="on")
    _not_ahead(on, today)
    entry.delete()
    below = roster.entries.filter(rank__gt=entry.rank)
    below.update(rank=F("rank") + 10000)  # two steps, as in roster_add (the ranks are unique)
    roster.entries.filter(rank__gt=10000).update(rank=F("rank") - 10001)
    RosterChange.objects.create(
        roster=roster,
        member=member,
        kind=RosterChangeKind.REMOVED,
        valid_from=on,
        old_rank=entry.rank,
        old_team=entry.team,
        reason=reason.strip(),
        recorded_by=user,
    )


@transaction.atomic
def roster_move(
    *,
    season: LeagueSeason,
    club: Club,
    member: Member,
    team: LeagueTeam,
    on: datetime.date,
    user,
    reason: str = "",
    today: datetime.date | None = None,
) -> RosterEntry:
    """The league director moves a player to another team of his club during the season, from
    ``on`` (today or earlier: it takes effect at once): he leaves his team's block (the players
    below move up one rank) and joins the end of ``team``'s block. His games stay; the change is
    logged."""
    _roster_director(season, user)
    _roster_teams_check(season, club, [team])
    roster = Roster.objects.select_for_update().filter(season=season, club=club).first()
    entry = None if roster is None else roster.entries.filter(member=member).select_related("team").first()
    if entry is None:
        raise LeagueRefused(
            _("%(player)s is not on the roster of %(club)s.") % {"player": member.full_name, "club": club},
            field="member",
        )
    if entry.team_id == team.pk:
        raise LeagueRefused(
            _("%(player)s belongs to %(team)s already.") % {"player": member.full_name, "team": team},
            field="team",
        )
    if on < season.start_date or (season.end_date is not None and on > season.end_date):
        raise LeagueRefused(_("A roster change is dated within the season."), field="on")
    if on < entry.added_on:
        raise LeagueRefused(
            _("%(player)s can move only from the day he was registered on.") % {"player": member.full_name},
            field="on",
        )
    _not_ahead(on, today)
    old_rank, old_team = entry.rank, entry.team
    others = roster.entries.exclude(pk=entry.pk)
    # Park the entry beyond all others, close its gap, then open one at the end of the new
    # team's block; each shift in two steps, so that no two entries hold one rank in between.
    RosterEntry.objects.filter(pk=entry.pk).update(rank=30000)
    others.filter(rank__gt=old_rank).update(rank=F("rank") + 10000)
    others.filter(rank__gt=10000).update(rank=F("rank") - 10001)
    block_end = others.filter(team__number__lte=team.number).aggregate(last=Max("rank"))["last"] or 0
    others.filter(rank__gt=block_end).update(rank=F("rank") + 10000)
    others.filter(rank__gt=10000).update(rank=F("rank") - 9999)
    entry.rank = block_end + 1
    entry.team = team
    entry.save(update_fields=["rank", "team"])
    RosterChange.objects.create(
        roster=roster,
        member=member,
        kind=RosterChangeKind.MOVED,
        valid_from=on,
        old_rank=old_rank,
        new_rank=entry.rank,
        old_team=old_team,
        new_team=team,
        reason=reason.strip(),
        recorded_by=user,
    )
    return entry
