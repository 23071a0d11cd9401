"""The ratings' part of a member's data (``clubrating.clubs.member_data``): pool states, the
live values kept at each closing, published list entries and every rating record with its
calculation; on erasure, whether his birth year must stay to rate his past games again.

``member_data_export`` and ``member_erase`` live in ``clubrating.clubs.member_data`` and walk
every app's part; they are named here too for the callers that compose with the ratings."""

from __future__ import annotations

from clubrating.clubs.member_data import (  # noqa: F401  (the copy and the erasure, named here too)
    FORMAT_VERSION,
    MemberDataPart,
    member_data_export,
    member_data_register,
    member_erase,
)
from clubrating.clubs.member_data import iso as _iso
from clubrating.clubs.models import Member

from .member_merge import member_ratings_merge, member_ratings_merge_refusals
from .models import ClosingLiveValues, FideTakeover, ListEntry, PoolMember, RatingPool, RatingRecord
from .rules.presets import get_rules
from .selectors.member import waiting_calculation_hidden


def member_ratings_data(*, member: Member) -> dict:
    pools = [
        {"pool": pm.pool.name, "published_rating": pm.rating, "games": pm.games_count,
         "live_rating": pm.live_rating, "live_change": pm.live_change, "live_games": pm.live_games,
         "pending_games": pm.pending_games}
        for pm in PoolMember.objects.filter(member=member).select_related("pool").order_by("pool__name")
    ]
    entries = [
        {"pool": e.list.pool.name, "valid_from": _iso(e.list.valid_from), "list_kind": e.list.kind,
         "superseded": e.list.superseded, "withdrawn": e.list.withdrawn, "rank": e.rank,
         "rating": e.rating, "change": e.change,
         "games": e.games_count, "games_in_period": e.period_games,
         "club": e.club.name if e.club_id else None}
        for e in ListEntry.objects.filter(member=member).select_related("list__pool", "list__period", "club")
        .order_by("list__pool__name", "list__valid_from")
    ]
    closings = [
        {"pool": c.list.pool.name, "valid_from": _iso(c.list.valid_from), "live_rating": c.live_rating,
         "live_change": c.live_change, "live_games": c.live_games, "pending_games": c.pending_games}
        for c in ClosingLiveValues.objects.filter(member=member).select_related("list__pool")
        .order_by("list__pool__name", "list__valid_from")
    ]
    records = [waiting_calculation_hidden(r, r.period.state if r.period_id else None) for r in
               RatingRecord.objects.filter(member=member).select_related("pool", "period", "opponent")
               .order_by("pool__name", "played_on", "pk")]
    records = [
        {"pool": r.pool.name, "game_id": r.game_id, "played_on": _iso(r.played_on),
         "opponent": r.opponent.full_name if r.opponent_id else None, "score": r.score,
         "pending": r.pending, "own_rating": r.own_rating, "opponent_rating": r.opponent_rating,
         "expected": r.expected, "factor": r.factor, "change": r.change}
        for r in records
    ]
    takeovers = [
        {"valid_from": _iso(t.list.valid_from), "fide_rating": t.fide_rating, "first_rating": t.rating}
        for t in FideTakeover.objects.filter(member=member).select_related("list")
    ]
    return {"pools": pools, "list_entries": entries, "closing_values": closings, "rating_records": records,
            "fide_takeovers": takeovers}


def _birth_year_rates(member: Member) -> bool:
    """Rating rules that give juniors another K need the birth year to rate the member's past
    games again exactly (FIDE Rating Regulations 8.3.3)."""
    rules = RatingPool.objects.filter(
        pk__in=RatingRecord.objects.filter(member=member).values("pool_id")).values_list("rules", flat=True)
    return any(get_rules(name).k_junior_age is not None for name in rules)


def register_parts() -> None:
    # RatingRecord names the member twice (his own records, and as the opponent in others'):
    # his copy holds his own; the others' are theirs, with his name as any game's opponent.
    member_data_register(MemberDataPart(
        key="ratings", export=lambda member: member_ratings_data(member=member),
        keeps_birth_year=_birth_year_rates,
        models=("ratings.PoolMember", "ratings.ListEntry", "ratings.ClosingLiveValues",
                "ratings.RatingRecord", "ratings.FideTakeover"),
        merge=member_ratings_merge, merge_refusals=member_ratings_merge_refusals))
