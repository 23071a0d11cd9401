"""Rating lists: the pools' lists in force, the published and the live list's rows, counts and ranks."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import (
    BooleanField,
    Case,
    CharField,
    ExpressionWrapper,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Concat, ExtractYear
from django.utils import timezone

from clubrating.clubs.models import Club, Member
from clubrating.clubs.privacy import restricted_q
from ratings.live_level import live_rank_expression
from ratings.models import (
    FIRST_RATING_MARKER,
    ListEntry,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
)
from ratings.selectors.counts import rated_members_count


def pool_list_on(pool: RatingPool, day: datetime.date | None = None) -> PublishedList | None:
    """The list in force on ``day`` (default: today): ``PublishedList.objects.in_force``."""
    return PublishedList.objects.filter(pool=pool).in_force(day or timezone.localdate()).first()


def pools_with_list_in_force(day: datetime.date) -> QuerySet[RatingPool]:
    """Every pool with its list in force on ``day`` (``published_pk``, ``published_from``; None
    without one), in one query."""
    in_force = PublishedList.objects.filter(pool=OuterRef("pk")).in_force(day)
    return RatingPool.objects.annotate(
        published_pk=Subquery(in_force.values("pk")[:1]),
        published_from=Subquery(in_force.values("valid_from")[:1]),
    )


@dataclass
class PoolLists:
    """A pool as the lists overview shows it: its open period and every list it published, the
    latest first, each marked ``valid`` (in force today) and ``future`` (valid from a later day)."""

    pool: RatingPool
    period: RatingPeriod | None
    lists: list[PublishedList]


def pools_overview(day: datetime.date) -> list[PoolLists]:
    """Every pool (by name) with its open period and its lists as they stand on ``day``: three
    queries for all of them."""
    by_pool: dict[int, list[PublishedList]] = {}
    for plist in PublishedList.objects.select_related("period").order_by("pool", "-valid_from", "-pk"):
        by_pool.setdefault(plist.pool_id, []).append(plist)
    open_periods = {p.pool_id: p for p in RatingPeriod.objects.filter(state=PeriodState.OPEN)}
    overview = []
    for pool in pools_with_list_in_force(day).order_by("name"):
        lists = by_pool.get(pool.pk, [])
        for plist in lists:
            plist.valid = plist.pk == pool.published_pk
            plist.future = not plist.withdrawn and plist.valid_from > day
        overview.append(PoolLists(pool, open_periods.get(pool.pk), lists))
    return overview


def list_entries(plist: PublishedList) -> QuerySet[ListEntry]:
    return plist.entries.select_related("member", "club").order_by("rank")


# The order of a rating list (``ratings.lists.order``, as ``list_publish`` ranks): rating, then
# name; the live list's places among ties are kept in that order with its ratings (``live_place``).
LIVE_ORDER = ("-live_rating", "live_place")  # (on the live rating's index)


def _birth_year():
    return Coalesce(ExtractYear("member__birth_date"), "member__birth_year", output_field=IntegerField())


def _restricted():
    """Whether the row's member shows only his name to visitors and other members
    (``clubrating.clubs.privacy``): true or false, never NULL (a member without birth date or
    year is an adult there, and filters on this value must find him)."""
    return Case(When(restricted_q(today=timezone.localdate(), prefix="member__"), then=Value(True)),
                default=Value(False), output_field=BooleanField())


# A list's own columns: an order led by one of them walks the list itself (its rank or live
# rating index), so the rows a later page skips need no member.
LIST_ORDER_COLUMNS = frozenset({"rank", "live_place", "live_rating", "list_rating", "list_change",
                                "list_games", "list_period_games", "list_markers"})


def page_keys(page: QuerySet) -> list[int]:
    """The keys of one page of rating-list rows (``page``: ``published_rows``/``live_rows``
    filtered, ordered and sliced), read without the rows' columns. When the order is led by
    the list's own columns, the members and clubs are joined by LEFT JOIN: every row has its
    member, so the keys are the same, but PostgreSQL then leaves out a join the query does not
    use, instead of looking up each of the thousands of members a later page skips. (Led by a
    member's column, as sorted by name, the INNER JOIN lets it walk the members' name index.)"""
    keys = page.values_list("pk", flat=True)
    order = keys.query.order_by
    lead = order[0] if order else ""  # "-rank", or ``F("rank").desc()``
    if not isinstance(lead, str):
        lead = getattr(getattr(lead, "expression", None), "name", "")
    if lead.lstrip("-") in LIST_ORDER_COLUMNS:
        member_tables = {Member._meta.db_table, Club._meta.db_table}
        joins = keys.query.alias_map
        for alias, join in list(joins.items()):
            if join.join_type is not None and join.table_name in member_tables:
                joins[alias] = join.promote()  # Django itself promotes joins on nullable keys only
    return list(keys)


def published_rows(plist: PublishedList) -> QuerySet[ListEntry]:
    """The list's entries as rows of a rating-list table (``list_*`` attributes, shared with
    ``live_rows``); not yet filtered, sorted or sliced: callers do that in SQL. The club is the
    one the entry was published with."""
    return ListEntry.objects.filter(list=plist).select_related("member", "club").annotate(
        list_club=F("club__name"), list_rating=F("rating"), list_change=F("change"),
        list_games=F("games_count"),
        list_period_games=F("period_games"), list_class=F("class_code"),
        list_markers=Concat(  # (``entry_markers``)
            Case(When(start_value=True, then=Value(FIRST_RATING_MARKER)), default=Value("")), F("markers"),
            output_field=CharField(),
        ),
        list_birth_year=_birth_year(), provisional=Value(False), list_restricted=_restricted(),
    )


def live_rows(pool: RatingPool) -> QuerySet[PoolMember]:
    """The live list as rows of a rating-list table: published rating + the open period's
    rounded changes (``PoolMember.live_*``, kept by the evaluation); newcomers appear once they
    would get a start value; ``rank`` is the place in the whole live list, kept with the live
    ratings (``ratings.services.live_ranks``). ``list_class`` is empty here:
    ``ratings.services.lists.class_code`` gives it for the rows shown."""
    played = Q(live_games__gt=0)
    rows = PoolMember.objects.filter(pool=pool, live_rating__isnull=False).select_related("member__club")
    return rows.annotate(
        list_club=F("member__club__name"), list_rating=F("live_rating"),
        list_change=Case(When(played, then=F("live_change")), default=None, output_field=FloatField()),
        list_games=ExpressionWrapper(F("games_count") + F("live_games"), output_field=IntegerField()),
        list_period_games=F("live_games"),
        list_markers=Case(When(rating__isnull=True, then=Value(FIRST_RATING_MARKER)), default=Value("")),
        # The rows shown get their class (ratings.lists.table.live_decorate).
        rank=live_rank_expression(), list_class=Value(""),
        list_birth_year=_birth_year(), provisional=ExpressionWrapper(played, output_field=BooleanField()),
        list_restricted=_restricted(),
    )


def live_count(pool: RatingPool, *, club_id: int | None = None, private: bool = False) -> int:
    """How many rows the live list has (of one club's members): counted on the pool's live
    rating index alone, without the joins and annotations of ``live_rows``. ``private``: as
    ``live_list`` shows one club's list to such a reader, without restricted profiles. The whole
    list's count is the rank of its last row (``rated_members_count``), not a count of the pool."""
    if club_id is None:
        return rated_members_count(pool_id=pool.pk)
    rows = PoolMember.objects.filter(pool=pool, live_rating__isnull=False, member__club_id=club_id)
    if private:
        rows = rows.exclude(restricted_q(today=timezone.localdate(), prefix="member__"))
    return rows.count()


def live_ranks(pool: RatingPool, member_ids: list[int] | None = None) -> dict[int, int]:
    """{member id: rank in the whole live list} for ``member_ids`` (default: everyone); one query
    of the ranks kept with the live ratings (``ratings.services.live_ranks``). The rank is the
    position in the unfiltered list, as a published list stores it."""
    ranked = PoolMember.objects.filter(pool=pool, live_rating__isnull=False).order_by()
    if member_ids is not None:
        if not member_ids:
            return {}
        ranked = ranked.filter(member_id__in=member_ids)
    return dict(ranked.annotate(live_rank=live_rank_expression()).values_list("member_id", "live_rank"))


@dataclass
class LiveEntry:
    rank: int
    member: Member
    rating: float
    change: float | None
    games: int
    published: float | None
    provisional: bool = True


def live_list(pool: RatingPool, *, club_id: int | None = None, limit: int | None = None,
              private: bool = False) -> list[LiveEntry]:
    """The live list in rank order (optionally one club's members, the first ``limit`` rows:
    ``ORDER BY … LIMIT``); ranks count the rows returned. Every value is provisional until the
    period is closed. One query. ``private``: for a reader who sees a restricted profile's name
    only, one club's list leaves such members out (being on it would tell their club)."""
    rows = live_rows(pool).order_by(*LIVE_ORDER)
    if club_id is not None:
        rows = rows.filter(member__club_id=club_id)
        if private:
            rows = rows.filter(list_restricted=False)
    if limit is not None:
        rows = rows[:limit]
    return [
        LiveEntry(rank, pm.member, pm.live_rating, pm.list_change, pm.list_games, pm.rating)
        for rank, pm in enumerate(rows, start=1)
    ]


def member_ratings(member: Member) -> QuerySet[PoolMember]:
    """The member's published and live values in every pool."""
    return PoolMember.objects.filter(member=member).select_related("pool").order_by("pool__name")
