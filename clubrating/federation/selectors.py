"""Reading FIDE's list as the site keeps it."""

from __future__ import annotations

from django.db.models import F, QuerySet

from clubrating.clubs.models import Member

from .models import FideList, FidePlayer, FideRating

SEARCH_LIMIT = 50


def fide_player_search(*, query: str) -> list[FidePlayer]:
    """Directory players by FIDE ID (a number) or by every word of the name, at most 50."""
    query = query.strip()
    if not query:
        return []
    if query.isdigit():
        return list(FidePlayer.objects.filter(fide_id=int(query)))
    players = FidePlayer.objects.all()
    for word in query.replace(",", " ").split():
        players = players.filter(name__icontains=word)
    return list(players.order_by("name", "fide_id")[:SEARCH_LIMIT])


def members_by_fide_id(fide_ids: list[int]) -> dict[int, Member]:
    return {m.fide_id: m for m in Member.objects.filter(fide_id__in=fide_ids)}


def fide_history(*, fide_id: int | None) -> QuerySet[FideRating]:
    """A player's rows, the latest month first."""
    if fide_id is None:
        return FideRating.objects.none()
    return FideRating.objects.filter(fide_id=fide_id).select_related("list").order_by("-list__month")


def fide_lists() -> QuerySet[FideList]:
    return FideList.objects.select_related("imported_by").order_by("-month")


def fide_list_rows(*, fide_list: FideList, members_only: bool = False) -> QuerySet[FideRating]:
    """The kept rows of a past month's list, best standard rating first."""
    rows = fide_list.ratings.order_by(F("standard").desc(nulls_last=True), "name", "fide_id")
    if members_only:
        rows = rows.filter(fide_id__in=Member.objects.filter(fide_id__isnull=False).values("fide_id"))
    return rows
