"""A member's part in the team leagues, for his copy of his data: his places in the clubs'
rosters and every change of them."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clubrating.clubs.member_data import MemberDataPart, iso, member_data_register
from clubrating.clubs.models import Member

from .models import RosterChange, RosterEntry


def member_league_data(*, member: Member) -> dict:
    roster_entries = [
        {"season": str(e.roster.season), "club": e.roster.club.name, "rank": e.rank,
         "team": e.team.name if e.team_id else None, "registered_on": iso(e.added_on)}
        for e in RosterEntry.objects.filter(member=member)
        .select_related("roster__season", "roster__club", "team").order_by("roster__season_id", "rank")
    ]
    roster_changes = [
        {"season": str(c.roster.season), "club": c.roster.club.name, "kind": c.kind,
         "valid_from": iso(c.valid_from), "old_rank": c.old_rank, "new_rank": c.new_rank,
         "old_team": c.old_team.name if c.old_team_id else None,
         "new_team": c.new_team.name if c.new_team_id else None, "reason": c.reason,
         "recorded_at": iso(c.recorded_at)}
        for c in RosterChange.objects.filter(member=member)
        .select_related("roster__season", "roster__club", "old_team", "new_team")
        .order_by("recorded_at", "pk")
    ]
    return {"roster_entries": roster_entries, "roster_changes": roster_changes}


def member_league_merge_refusals(keep: Member, duplicate: Member, user) -> list[str]:
    """One roster holds a person once: two places in one roster are two people."""
    both = RosterEntry.objects.filter(member=duplicate, roster__entries__member=keep)
    return [_("Both are on the roster of %(roster)s.") % {"roster": e.roster}
            for e in both.select_related("roster__club", "roster__season").distinct()]


def member_league_merge(keep: Member, duplicate: Member, user) -> None:
    RosterEntry.objects.filter(member=duplicate).update(member=keep)
    RosterChange.objects.filter(member=duplicate).update(member=keep)


def register_parts() -> None:
    member_data_register(MemberDataPart(
        key="leagues", export=lambda member: member_league_data(member=member),
        models=("leagues.RosterEntry", "leagues.RosterChange"),
        merge=member_league_merge, merge_refusals=member_league_merge_refusals))
