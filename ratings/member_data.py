"""Everything the site holds about one member, in one JSON document (DSGVO Art. 15 and 20: his
copy of his data), and his erasure (Art. 17). Composes the club apps' parts with the ratings:
pool states, published list entries and every rating record with its calculation."""

from __future__ import annotations

import datetime

from django.db import transaction

from clubrating.clubs.member_data import iso as _iso
from clubrating.clubs.member_data import member_personal_data, member_pseudonymise
from clubrating.clubs.models import Erasure, Member
from clubrating.federation.services import member_fide_rows_erase
from clubrating.national_list.selectors import member_national_data
from clubrating.national_list.services import member_national_ratings_erase
from clubrating.tournaments.member_data import member_tournament_data

from .models import FideTakeover, ListEntry, PoolMember, RatingPool, RatingRecord
from .rules.presets import get_rules

FORMAT_VERSION = 1


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
    records = [
        {"pool": r.pool.name, "game_id": r.game_id, "played_on": _iso(r.played_on),
         "opponent": r.opponent.full_name if r.opponent_id else None, "score": r.score,
         "pending": r.pending, "own_rating": r.own_rating, "opponent_rating": r.opponent_rating,
         "expected": r.expected, "factor": r.factor, "change": r.change}
        for r in RatingRecord.objects.filter(member=member).select_related("pool", "opponent")
        .order_by("pool__name", "played_on", "pk")
    ]
    takeovers = [
        {"valid_from": _iso(t.list.valid_from), "fide_rating": t.fide_rating, "first_rating": t.rating}
        for t in FideTakeover.objects.filter(member=member).select_related("list")
    ]
    return {"pools": pools, "list_entries": entries, "rating_records": records, "fide_takeovers": takeovers}


def member_data_export(*, member: Member) -> dict:
    """The member's copy of his data."""
    return {
        "format": "clubrating-member-data", "version": FORMAT_VERSION,
        "exported_at": _iso(datetime.datetime.now(datetime.UTC).replace(microsecond=0)),
        **member_personal_data(member=member),
        "tournaments": member_tournament_data(member=member),
        "ratings": member_ratings_data(member=member),
        "national_lists": member_national_data(member=member),
    }


def _birth_year_rates(member: Member) -> bool:
    """Rating rules that give juniors another K need the birth year to rate the member's past
    games again exactly (FIDE Rating Regulations 8.3.3)."""
    rules = RatingPool.objects.filter(
        pk__in=RatingRecord.objects.filter(member=member).values("pool_id")).values_list("rules", flat=True)
    return any(get_rules(name).k_junior_age is not None for name in rules)


@transaction.atomic
def member_erase(*, member: Member, by, cause: str) -> Erasure:
    """Erase the member: his personal data go, his name becomes a pseudonym; his games,
    rating records and published lists stay (sporting records) and unchanged but for the name.
    Logged in ``Erasure`` without the erased data. A second erasure changes nothing."""
    fide_id = member.fide_id  # cleared by the pseudonymisation
    erasure = member_pseudonymise(member=member, keep_birth_year=_birth_year_rates(member), by=by,
                                  cause=cause)
    member_national_ratings_erase(member=member)
    member_fide_rows_erase(fide_id=fide_id)
    return erasure
