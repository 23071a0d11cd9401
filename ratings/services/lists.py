"""Writing a published list and making it the pool's published state (PoolMember)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from clubrating.clubs.models import Member
from ratings.lists.order import name_key
from ratings.models import (
    ClosingLiveValues,
    ListEntry,
    ListKind,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
)
from ratings.rules.presets import get_rules
from ratings.services.cache import pool_cache_bump
from ratings.services.db import fetch_rows, rows_insert, rows_update
from ratings.services.evaluation import LIVE_FIELDS


@dataclass(slots=True)
class EntryData:
    rating: float
    previous: float | None = None
    games_count: int = 0
    period_games: int = 0
    markers: str = ""
    start_value: bool = False
    reached_2400: bool = False


def class_code(pool: RatingPool, rating: float) -> str:
    try:
        from ratings.rules.classes import chess_class, go_grade
    except ImportError:  # the engine's classes module is optional for storing a list
        return ""
    return go_grade(rating) if get_rules(pool.rules).go_grades else chess_class(rating)


# A list entry's columns as ``list_rows`` gives them (after the list's id).
ENTRY_COLUMNS = (
    "member_id",
    "club_id",
    "rank",
    "rating",
    "previous_rating",
    "change",
    "games_count",
    "period_games",
    "markers",
    "class_code",
    "start_value",
    "reached_2400",
)


def list_rows(
    pool: RatingPool, entries: dict[int, EntryData], *, names: dict[int, tuple[str, str]] | None = None
) -> list[tuple]:
    """The rows (ENTRY_COLUMNS) of a list of ``entries``, in rank order, each member with his
    club as it is now. ``names`` receives every pool member's name as lists order it
    (``list_name``), for the live places written with the list (``pool_members_write``)."""
    known = {
        mid: (list_name(last, first), club)
        for mid, last, first, club in fetch_rows(PoolMember.objects.filter(pool=pool).order_by().values_list(
            "member_id", "member__last_name", "member__first_name", "member__club_id"
        ))
    }
    if names is not None:
        names.update((mid, name) for mid, (name, _club) in known.items())
    missing = [mid for mid in entries if mid not in known]  # e.g. a start list's new members
    for start in range(0, len(missing), 500):
        for mid, last, first, club in Member.objects.filter(pk__in=missing[start:start + 500]).values_list(
            "pk", "last_name", "first_name", "club_id"
        ):
            known[mid] = (list_name(last, first), club)
    order = list_order(entries, {mid: name for mid, (name, _club) in known.items()})
    rows = []
    classes: dict[float, str] = {}  # (a class per rating: a list has far fewer ratings than rows)
    for rank, mid in enumerate(order, start=1):
        e = entries[mid]
        if e.rating not in classes:
            classes[e.rating] = class_code(pool, e.rating)
        rows.append(
            (
                mid,
                known[mid][1] if mid in known else None,
                rank,
                e.rating,
                e.previous,
                None if e.previous is None else e.rating - e.previous,
                e.games_count,
                e.period_games,
                e.markers,
                classes[e.rating],
                e.start_value,
                e.reached_2400,
            )
        )
    return rows


def list_publish(
    *,
    pool: RatingPool,
    entries: dict[int, EntryData],
    kind: str = ListKind.PERIOD,
    period: RatingPeriod | None = None,
    valid_from: datetime.date,
    user=None,
    note: str = "",
    live_values: list[tuple] | None = None,
    early_reason: str = "",
    apply: bool = True,
    rows: list[tuple] | None = None,
) -> PublishedList:
    """Write the snapshot and make it the published state; members not in ``entries`` become
    newcomers of the pool. A republished period's former list is marked superseded.
    ``live_values``: the closed period's (member, *LIVE_FIELDS) of every member with a game in
    it, kept with the list (``ClosingLiveValues``) so that reopening the period restores them.
    ``apply=False``: the caller makes the list the published state itself (``published_values``),
    with the live values of the next period in the same write (``period_close``). ``rows``: the
    entries' rows as ``list_rows`` gives them, if the caller has them."""
    if period is not None:
        PublishedList.objects.filter(period=period, superseded=False).update(superseded=True)
    plist = PublishedList.objects.create(
        pool=pool,
        period=period,
        kind=kind,
        valid_from=valid_from,
        note=note,
        early_reason=early_reason,
        live_values_kept=live_values is not None,
        published_by=user if user is not None and getattr(user, "is_authenticated", False) else None,
    )
    rows = [(plist.pk, *row) for row in (list_rows(pool, entries) if rows is None else rows)]
    # Set-based: the ORM's bulk_create costs seconds at 20,000 rows.
    rows_insert(ListEntry, ("list_id", *ENTRY_COLUMNS), rows)
    if live_values:
        kept = [(plist.pk, *values) for values in live_values]
        rows_insert(ClosingLiveValues, ("list_id", "member_id", *LIVE_FIELDS), kept)
    if apply:
        state_from_entries(pool, published_values(entries))
    return plist


def published_values(entries: dict[int, EntryData]) -> dict[int, tuple[float, int, bool]]:
    """The published values (rating, games count, reached 2400) a list's entries give PoolMember."""
    return {m: (e.rating, e.games_count, e.reached_2400) for m, e in entries.items()}


def list_name(last: str, first: str) -> tuple[str, str]:
    """A member's name as a list orders it (after the rating): ``ratings.lists.order.name_key``."""
    return name_key(last, first)


def list_order(entries: dict[int, EntryData], names: dict[int, tuple[str, str]]) -> list[int]:
    """The members of a new list in rank order (``ratings.lists.order``): rating, then name
    (``list_name``), then id."""
    return sorted(entries, key=lambda m: (-entries[m].rating, *names.get(m, ("", "")), m))


def list_valid_from(period: RatingPeriod) -> datetime.date:
    """The day a period's list applies from: the day after the period's last day (docs/rules.md
    §1.8a: the list's date)."""
    return period.end + datetime.timedelta(days=1)


def state_from_entries(pool: RatingPool, values: dict[int, tuple[float, int, bool]]) -> None:
    """Set PoolMember's published values (rating, games count, reached 2400) to ``values``;
    every other member of the pool becomes a newcomer. Only the members whose values change
    are written. Callers then evaluate the open period, which stores the live values."""
    pool_members_ensure(pool, values)
    stored = fetch_rows(
        PoolMember.objects.filter(pool=pool).order_by().values_list(
            "member_id", "rating", "games_count", "reached_2400"
        )
    )
    newcomer = (None, 0, False)
    rows = []
    for mid, *published in stored:
        new = values.get(mid, newcomer)
        if tuple(published) != tuple(new):
            rows.append((*new, pool.pk, mid))
    rows_update(PoolMember, ("pool_id", "member_id"), ("rating", "games_count", "reached_2400"), rows)
    pool_cache_bump(pool_id=pool.pk)


def list_values(plist: PublishedList | None) -> dict[int, tuple[float, int, bool]]:
    if plist is None:
        return {}
    return {
        m: (r, g, reached)
        for m, r, g, reached in fetch_rows(plist.entries.order_by().values_list(
            "member_id", "rating", "games_count", "reached_2400"
        ))
    }


def current_list(pool: RatingPool, *, before: PublishedList | None = None) -> PublishedList | None:
    """The pool's latest published list (optionally the one published before ``before``): the
    list its published ratings come from, whatever day it applies from (``PublishedList.objects
    .in_force`` is the list that applies on a day)."""
    qs = PublishedList.objects.filter(pool=pool).published()
    if before is not None:
        qs = qs.filter(pk__lt=before.pk)
    return qs.order_by("-pk").first()


def pool_members_ensure(pool: RatingPool, member_ids) -> None:
    """Create the missing PoolMember rows (one query to find them, one batch to insert)."""
    wanted = set(member_ids)
    if not wanted:
        return
    existing = set(PoolMember.objects.filter(pool=pool).order_by().values_list("member_id", flat=True))
    PoolMember.objects.bulk_create(
        [PoolMember(pool=pool, member_id=m) for m in wanted - existing], ignore_conflicts=True, batch_size=500
    )
