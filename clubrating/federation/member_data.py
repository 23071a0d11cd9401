"""The FIDE rows the site keeps under a member's FIDE ID (the months of FIDE's list and a follow
of his ID), in his copy of his data and deleted on his erasure (``services.member_fide_rows_erase``)."""

from __future__ import annotations

from clubrating.clubs.member_data import MemberDataPart, iso, member_data_register
from clubrating.clubs.models import Member

from .models import FideFollow, FideRating
from .services import member_fide_rows_erase


def member_fide_data(*, member: Member) -> dict:
    if member.fide_id is None:
        return {"months": [], "followed_since": None}
    months = [
        {"month": iso(r.list.month), "name": r.name, "federation": r.federation, "title": r.title,
         "standard": r.standard, "rapid": r.rapid, "blitz": r.blitz, "birth_year": r.birth_year,
         "inactive": r.inactive}
        for r in FideRating.objects.filter(fide_id=member.fide_id).select_related("list")
        .order_by("list__month")
    ]
    follow = FideFollow.objects.filter(fide_id=member.fide_id).first()
    return {"months": months, "followed_since": iso(follow.created_at) if follow else None}


def register_parts() -> None:
    member_data_register(MemberDataPart(
        key="fide", export=lambda member: member_fide_data(member=member),
        erase=lambda member: member_fide_rows_erase(fide_id=member.fide_id),
        models=("federation.FideRating", "federation.FideFollow"),
        # The FIDE rows name the FIDE ID, not the record: they follow the ID, which the kept member
        # takes from the duplicate when he lacks one (two different IDs are refused).
        merge=lambda keep, duplicate, user: None))
