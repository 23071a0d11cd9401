"""The national lists' part of a member's data: his lines of the kept lists, in his copy and
deleted on his erasure (``services.member_national_ratings_erase``)."""

from __future__ import annotations

from clubrating.clubs.member_data import MemberDataPart, member_data_register

from .selectors import member_national_data
from .services import member_national_ratings_erase


def register_parts() -> None:
    member_data_register(MemberDataPart(
        key="national_lists", export=lambda member: member_national_data(member=member),
        erase=lambda member: member_national_ratings_erase(member=member),
        models=("national_list.NationalRating",)))
