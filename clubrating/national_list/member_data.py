"""The national lists' part of a member's data: his lines of the kept lists, in his copy and
deleted on his erasure (``services.member_national_ratings_erase``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clubrating.clubs.member_data import MemberDataPart, member_data_register
from clubrating.clubs.models import Member

from .models import NationalRating
from .selectors import member_national_data
from .services import member_national_ratings_erase


def _merge_refusals(keep: Member, duplicate: Member, user) -> list[str]:
    """A kept national list names a person once: two lines of one list are two people."""
    both = NationalRating.objects.filter(member=duplicate, national_list__entries__member=keep)
    return [_("Both are on the national list of %(date)s.") % {"date": line.national_list}
            for line in both.select_related("national_list").distinct()]


def _merge(keep: Member, duplicate: Member, user) -> None:
    NationalRating.objects.filter(member=duplicate).update(member=keep)


def register_parts() -> None:
    member_data_register(MemberDataPart(
        key="national_lists", export=lambda member: member_national_data(member=member),
        erase=lambda member: member_national_ratings_erase(member=member),
        models=("national_list.NationalRating",), merge=_merge, merge_refusals=_merge_refusals))
