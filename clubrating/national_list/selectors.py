"""Reads of the national rating lists."""

from __future__ import annotations

import csv
import io

from django.db.models import Count

from .models import NationalList, NationalRating

MEMBER_HISTORY_MAX = 12  # lists shown on a member's page, the latest first


def national_lists():
    """The lists kept, the latest first, each with its number of entries (``entry_count``)."""
    return NationalList.objects.annotate(entry_count=Count("entries")).select_related("imported_by")


def member_national_ratings(*, member) -> list[NationalRating]:
    """The member's lines on the latest national lists, the latest first. Lines are matched by
    national ID: a member without one (most guests and juniors) is on no list, and his page asks
    nothing more."""
    if not member.national_id:
        return []
    return list(NationalRating.objects.filter(member=member).select_related("national_list")
                .order_by("-national_list__list_date")[:MEMBER_HISTORY_MAX])


def national_list_starting_csv(*, national_list: NationalList) -> str:
    """The list as a pool's starting-list CSV (columns id, name, rating, games): the members it
    rates, by national ID, as the starting-list import reads them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "rating", "games"])
    entries = (national_list.entries.filter(rating__isnull=False).select_related("member")
               .order_by("-rating", "member__last_name", "member__first_name"))
    for entry in entries:
        writer.writerow([entry.member.national_id, entry.member.full_name, entry.rating, entry.games or 0])
    return out.getvalue()


def member_national_data(*, member) -> list[dict]:
    """The member's lines of every kept list as plain data, for his copy of his data."""
    return [
        {"list_date": entry.national_list.list_date.isoformat(), "national_id": entry.national_id,
         "name": entry.name, "rating": entry.rating, "games": entry.games, "birth_year": entry.birth_year,
         "club": entry.club}
        for entry in NationalRating.objects.filter(member=member).select_related("national_list")
        .order_by("national_list__list_date")
    ]
