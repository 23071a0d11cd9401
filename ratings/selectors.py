"""Reads for pages and commands; each runs a fixed number of queries whatever the list size."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import (
    BooleanField,
    Case,
    ExpressionWrapper,
    F,
    FloatField,
    IntegerField,
    OrderBy,
    Q,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, ExtractYear, RowNumber

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Tournament
from ratings.models import ListEntry, PoolMember, PublishedList, RatingPool, RatingRecord


def pool_list_on(pool: RatingPool, day: datetime.date | None = None) -> PublishedList | None:
    """The list in force (not superseded) on ``day`` (default: the latest)."""
    qs = PublishedList.objects.filter(pool=pool, superseded=False)
    if day is not None:
        qs = qs.filter(valid_from__lte=day)
    return qs.order_by("-valid_from", "-pk").first()


def list_entries(plist: PublishedList) -> QuerySet[ListEntry]:
    return plist.entries.select_related("member", "member__club").order_by("rank")


# The order of a rating list (as ratings.services.lists.list_publish ranks): rating, then name.
LIVE_ORDER = ("-live_rating", "member__last_name", "member__first_name", "member_id")


def _birth_year():
    return Coalesce(ExtractYear("member__birth_date"), "member__birth_year", output_field=IntegerField())


def published_rows(plist: PublishedList) -> QuerySet[ListEntry]:
    """The list's entries as rows of a rating-list table (``list_*`` attributes, shared with
    ``live_rows``); not yet filtered, sorted or sliced: callers do that in SQL."""
    return ListEntry.objects.filter(list=plist).select_related("member__club").annotate(
        list_rating=F("rating"), list_change=F("change"), list_games=F("games_count"),
        list_period_games=F("period_games"), list_markers=F("markers"), list_class=F("class_code"),
        list_birth_year=_birth_year(), provisional=Value(False),
    )


def live_rows(pool: RatingPool) -> QuerySet[PoolMember]:
    """The live list as rows of a rating-list table: published rating + the open period's
    rounded changes (``PoolMember.live_*``, kept by the evaluation); newcomers appear once they
    would get a start value. ``rank`` and ``list_class`` are empty here:
    ``live_ranks`` and ``ratings.services.lists.class_code`` give them for the rows shown."""
    played = Q(live_games__gt=0)
    rows = PoolMember.objects.filter(pool=pool, live_rating__isnull=False).select_related("member__club")
    return rows.annotate(
        list_rating=F("live_rating"),
        list_change=Case(When(played, then=F("live_change")), default=None, output_field=FloatField()),
        list_games=ExpressionWrapper(F("games_count") + F("live_games"), output_field=IntegerField()),
        list_period_games=F("live_games"),
        list_markers=Case(When(rating__isnull=True, then=Value("N")), default=Value("")),
        # The rows shown get their rank and class (ratings.tables.live_decorate).
        rank=Value(None, output_field=IntegerField()), list_class=Value(""),
        list_birth_year=_birth_year(), provisional=ExpressionWrapper(played, output_field=BooleanField()),
    )


def live_ranks(pool: RatingPool, member_ids: list[int] | None = None) -> dict[int, int]:
    """{member id: rank in the whole live list} for ``member_ids`` (default: everyone); one query.
    The rank is the position in the unfiltered list, as a published list stores it."""
    ranked = (
        PoolMember.objects.filter(pool=pool, live_rating__isnull=False)
        .annotate(live_rank=Window(RowNumber(), order_by=[OrderBy(F("live_rating"), descending=True),
                                                            F("member__last_name").asc(),
                                                            F("member__first_name").asc(),
                                                            F("member_id").asc()]))
        .values_list("member_id", "live_rank")
    )
    if member_ids is None:
        return dict(ranked)
    if not member_ids:
        return {}
    # Filtering the annotated queryset would rank the filtered rows only: filter outside instead.
    sql, params = ranked.query.sql_with_params()
    marks = ", ".join(["%s"] * len(member_ids))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM ({sql}) ranked WHERE ranked.member_id IN ({marks})",
                       [*params, *member_ids])
        return dict(cursor.fetchall())


@dataclass
class LiveEntry:
    rank: int
    member: Member
    rating: float
    change: float | None
    games: int
    published: float | None
    provisional: bool = True


def live_list(pool: RatingPool, *, club_id: int | None = None, limit: int | None = None) -> list[LiveEntry]:
    """The live list in rank order (optionally one club's members, the first ``limit`` rows:
    ``ORDER BY … LIMIT``); ranks count the rows returned. Every value is provisional until the
    period is closed. One query."""
    rows = live_rows(pool).order_by(*LIVE_ORDER)
    if club_id is not None:
        rows = rows.filter(member__club_id=club_id)
    if limit is not None:
        rows = rows[:limit]
    return [
        LiveEntry(rank, pm.member, pm.live_rating, pm.list_change, pm.list_games, pm.rating)
        for rank, pm in enumerate(rows, start=1)
    ]


def member_ratings(member: Member) -> QuerySet[PoolMember]:
    """The member's published and live values in every pool."""
    return PoolMember.objects.filter(member=member).select_related("pool").order_by("pool__name")


def member_rated_games(member: Member, pool: RatingPool) -> QuerySet[RatingRecord]:
    """Every rated game of the member in the pool with its calculation, newest first."""
    return (
        RatingRecord.objects.filter(pool=pool, member=member)
        .select_related("opponent", "period", "game__round__tournament")
        .order_by("-played_on", "-game_id")
    )


@dataclass
class PlayerEvaluation:
    member: Member
    rating: float | None
    games: int = 0
    points: float = 0.0
    expected: float = 0.0
    factor: float | None = None
    change: float = 0.0
    pending: int = 0
    records: list[RatingRecord] = field(default_factory=list)


def tournament_evaluation(tournament: Tournament, pool: RatingPool) -> list[PlayerEvaluation]:
    """Per player (as chess-results shows it): rating, games, points, expected, factor, change,
    plus the per-game rows; ordered by rating. One query."""
    records = (
        RatingRecord.objects.filter(pool=pool, game__round__tournament=tournament)
        .select_related("member", "opponent", "game__round")
        .order_by("game__round__number", "game__board", "-white")
    )
    players: dict[int, PlayerEvaluation] = {}
    for rec in records:
        p = players.setdefault(rec.member_id, PlayerEvaluation(rec.member, rec.own_rating))
        p.records.append(rec)
        if rec.change is None:
            p.pending += rec.pending
            continue
        p.games += 1
        p.points += rec.score
        p.expected += rec.expected
        p.factor = rec.factor
        p.change += rec.change
    return sorted(players.values(), key=lambda p: (-(p.rating or 0), p.member.last_name, p.member.pk))
