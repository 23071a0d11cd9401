"""Reads for pages and commands; each runs a fixed number of queries whatever the list size."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
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
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, ExtractYear, RowNumber

from clubrating.clubs.models import Member
from clubrating.tournaments.models import GameCategory, Tournament, TournamentPlayer
from ratings.models import ListEntry, PoolMember, PublishedList, RatingPool, RatingRecord
from ratings.rules.halfrating import FULL_RATING_GAMES, half_rating, half_rating_valid_until
from ratings.rules.performance import performance_exact
from ratings.rules.rounding import round_half_away


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


# --- a member's page: pools, list history, rated games, performances, half rating -----------------


@dataclass
class TournamentPerformance:
    tournament: object
    games: int = 0
    points: float = 0.0
    opponents: list[float] = field(default_factory=list)
    # Points against opponents with a rating used (not pending games against newcomers).
    rated_points: float = 0.0
    change: float = 0.0

    @property
    def average(self) -> float | None:
        return sum(self.opponents) / len(self.opponents) if self.opponents else None

    @property
    def performance(self) -> int | None:
        return performance_exact(self.opponents, self.rated_points) if self.opponents else None


@dataclass
class PoolBlock:
    pool: RatingPool
    state: PoolMember | None
    records: list[RatingRecord] = field(default_factory=list)
    performances: list[TournamentPerformance] = field(default_factory=list)
    history: list[ListEntry] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        return bool(self.state and self.state.live_games)


def _performances(records: list[RatingRecord]) -> list[TournamentPerformance]:
    by_tournament: dict[int, TournamentPerformance] = {}
    for record in records:
        tournament = record.game.round.tournament
        perf = by_tournament.setdefault(tournament.pk, TournamentPerformance(tournament))
        perf.games += 1
        perf.points += record.score
        perf.change += record.change or 0.0
        if record.opponent_rating is not None:
            perf.opponents.append(record.opponent_rating)
            perf.rated_points += record.score
    return list(by_tournament.values())


def member_rating_blocks(member: Member) -> list[PoolBlock]:
    """One block per pool the member has a state, a list entry or a game in (three queries):
    ``member_ratings`` with the list history and every rated game with its calculation."""
    blocks: dict[int, PoolBlock] = {}
    for state in member_ratings(member):
        blocks[state.pool_id] = PoolBlock(state.pool, state)
    history = (
        ListEntry.objects.filter(member=member, list__superseded=False)
        .select_related("list__pool", "list__period").order_by("list__valid_from", "list__pk")
    )
    for entry in history:
        blocks.setdefault(entry.list.pool_id, PoolBlock(entry.list.pool, None)).history.append(entry)
    records = (
        RatingRecord.objects.filter(member=member)
        .select_related("pool", "period", "opponent", "game__round__tournament")
        .order_by("played_on", "game__round__tournament__start_date", "game__round__number", "pk")
    )
    for record in records:
        blocks.setdefault(record.pool_id, PoolBlock(record.pool, None)).records.append(record)
    for block in blocks.values():
        block.performances = _performances(block.records)
    return sorted(blocks.values(), key=lambda b: b.pool.name)


@dataclass
class HalfRating:
    games: int
    points: float
    average: float
    value: int | None
    valid_until: datetime.date | None
    full_rating_games: int = FULL_RATING_GAMES


def member_half_rating(member: Member, blocks: list[PoolBlock]) -> HalfRating | None:
    """§1.9, for a member without a FIDE rating: his rated standard games (each game once,
    whatever the number of pools) against opponents with a FIDE rating. The opponent's FIDE
    rating is the one registered for the tournament, else his current one. None when the
    member has a FIDE rating or no such game."""
    if member.fide_rating:
        return None
    records = {}
    for block in blocks:
        if block.pool.category != GameCategory.STANDARD:
            continue
        for record in block.records:
            records.setdefault(record.game_id, record)
    if not records:
        return None
    registered = dict(
        ((t, m), r) for t, m, r in TournamentPlayer.objects.filter(
            tournament_id__in={r.game.round.tournament_id for r in records.values()},
            member_id__in={r.opponent_id for r in records.values()},
        ).values_list("tournament_id", "member_id", "fide_rating")
    )
    ratings, points, last_day = [], 0.0, None
    for record in records.values():
        key = (record.game.round.tournament_id, record.opponent_id)
        fide = registered.get(key) or record.opponent.fide_rating
        if fide:
            ratings.append(fide)
            points += record.score
            last_day = max(last_day, record.played_on) if last_day else record.played_on
    if not ratings:
        return None
    value = half_rating(ratings, points)
    return HalfRating(
        games=len(ratings), points=points, average=sum(ratings) / len(ratings), value=value,
        valid_until=half_rating_valid_until(last_day) if value is not None else None,
    )


# --- the tournament pages: rating changes per board, the rating evaluation ------------------------


@dataclass
class BoardChange:
    """The rating change of both players of one game in one pool."""

    pool: RatingPool
    white: RatingRecord | None = None
    black: RatingRecord | None = None

    @staticmethod
    def _change(record: RatingRecord | None) -> float | None:
        return None if record is None or record.pending else record.change

    @property
    def white_change(self) -> float | None:
        return self._change(self.white)

    @property
    def black_change(self) -> float | None:
        return self._change(self.black)

    @property
    def pending(self) -> bool:
        return any(r is not None and r.pending for r in (self.white, self.black))


def game_rating_changes(game_ids: Iterable[int]) -> dict[int, list[BoardChange]]:
    """{game id: [BoardChange per pool]} for the games that have rating records. One query."""
    changes: dict[int, dict[int, BoardChange]] = defaultdict(dict)
    records = RatingRecord.objects.filter(game_id__in=list(game_ids)).select_related("pool")
    for record in records.order_by("pool__name", "pk"):
        board = changes[record.game_id].setdefault(record.pool_id, BoardChange(pool=record.pool))
        if record.white:
            board.white = record
        else:
            board.black = record
    return {game_id: list(pools.values()) for game_id, pools in changes.items()}


@dataclass
class PlayerEvaluation:
    """One player's line of the evaluation. ``games``, ``points``, ``expected`` and ``change``
    cover the rated games only, so that change = Σ (score − expected) × factor holds; games still
    waiting for a rating (against newcomers, §1.7, or not evaluated yet) are ``pending``."""

    member: Member
    start_rank: int | None
    own_rating: float | None
    factor: float | None
    games: int = 0
    points: float = 0.0
    expected: float = 0.0
    change: float = 0.0
    pending: int = 0
    pending_points: float = 0.0
    records: list[RatingRecord] = field(default_factory=list)

    @property
    def change_rounded(self) -> int:
        return round_half_away(self.change)

    @property
    def is_newcomer(self) -> bool:
        return self.own_rating is None


@dataclass
class PoolEvaluation:
    pool: RatingPool
    rows: list[PlayerEvaluation]


def tournament_evaluation(tournament: Tournament, pool: RatingPool | None = None) -> list[PoolEvaluation]:
    """Per pool that rated the tournament (or only ``pool``), per player in starting-rank order:
    rating, rated games, points, expected points, factor, change and the per-game calculation
    (chess-results' "Elo evaluation"), pending games apart. One query."""
    start_rank = TournamentPlayer.objects.filter(tournament=tournament, member=OuterRef("member_id"))
    records = (
        RatingRecord.objects.filter(game__round__tournament=tournament)
        .annotate(start_rank=Subquery(start_rank.values("start_rank")[:1]))
        .select_related("pool", "member", "opponent", "game__round")
        .order_by("pool__name", "game__round__number", "game__board")
    )
    if pool is not None:
        records = records.filter(pool=pool)
    pools: dict[int, PoolEvaluation] = {}
    rows: dict[tuple[int, int], PlayerEvaluation] = {}
    for record in records:
        evaluation = pools.setdefault(record.pool_id, PoolEvaluation(pool=record.pool, rows=[]))
        row = rows.get((record.pool_id, record.member_id))
        if row is None:
            row = rows[record.pool_id, record.member_id] = PlayerEvaluation(
                member=record.member, start_rank=record.start_rank,
                own_rating=record.own_rating, factor=record.factor,
            )
            evaluation.rows.append(row)
        row.records.append(record)
        if record.pending or record.change is None:
            row.pending += 1
            row.pending_points += record.score
            continue
        row.games += 1
        row.points += record.score
        row.expected += record.expected or 0.0
        row.change += record.change
        if row.own_rating is None:
            row.own_rating = record.own_rating
        if row.factor is None:
            row.factor = record.factor
    for evaluation in pools.values():
        evaluation.rows.sort(key=lambda r: (r.start_rank is None, r.start_rank or 0, str(r.member)))
    return list(pools.values())
