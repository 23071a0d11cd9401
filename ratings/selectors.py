"""Reads for pages and commands; each runs a fixed number of queries whatever the list size."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import QuerySet

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


@dataclass
class LiveEntry:
    rank: int
    member: Member
    rating: float
    change: float | None
    games: int
    published: float | None
    provisional: bool = True


def live_list(pool: RatingPool) -> list[LiveEntry]:
    """Published rating + rounded changes of the open period; newcomers once they would get a
    start value. Every value is provisional until the period is closed."""
    rows = (
        PoolMember.objects.filter(pool=pool, live_rating__isnull=False)
        .select_related("member", "member__club")
        .order_by("-live_rating", "member__last_name", "member__first_name", "member_id")
    )
    return [
        LiveEntry(rank, pm.member, pm.live_rating, pm.live_change, pm.games_count + pm.live_games, pm.rating)
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
