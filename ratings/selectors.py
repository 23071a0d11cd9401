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
    CharField,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Concat, ExtractYear
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club, Member
from clubrating.clubs.privacy import restricted_q
from clubrating.core.db import plain_rows, server_bound
from clubrating.tournaments.models import Game, GameCategory, Result, Tournament, TournamentPlayer
from ratings.adapters import pool_rules
from ratings.awaited import boards_awaited, members_awaited, pools_awaited
from ratings.models import (
    FIRST_RATING_MARKER,
    ListEntry,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
)
from ratings.rules.halfrating import FULL_RATING_GAMES, half_rating, half_rating_valid_until
from ratings.rules.performance import performance_exact
from ratings.rules.rounding import round_half_away
from ratings.services.pools import pool_tournaments_filter, tournament_pools


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
# name; the live list's ranks are kept in that order with its ratings (``live_rank``).
LIVE_ORDER = ("-live_rating", "live_rank")  # (on the live rating's index)


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
LIST_ORDER_COLUMNS = frozenset({"rank", "live_rank", "live_rating", "list_rating", "list_change",
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
        rank=F("live_rank"), list_class=Value(""),
        list_birth_year=_birth_year(), provisional=ExpressionWrapper(played, output_field=BooleanField()),
        list_restricted=_restricted(),
    )


def live_count(pool: RatingPool, *, club_id: int | None = None, private: bool = False) -> int:
    """How many rows the live list has (of one club's members): counted on the pool's live
    rating index alone, without the joins and annotations of ``live_rows``. ``private``: as
    ``live_list`` shows one club's list to such a reader, without restricted profiles."""
    rows = PoolMember.objects.filter(pool=pool, live_rating__isnull=False)
    if club_id is not None:
        rows = rows.filter(member__club_id=club_id)
        if private:
            rows = rows.exclude(restricted_q(today=timezone.localdate(), prefix="member__"))
    return rows.count()


def live_ranks(pool: RatingPool, member_ids: list[int] | None = None) -> dict[int, int]:
    """{member id: rank in the whole live list} for ``member_ids`` (default: everyone); one query
    of the ranks kept with the live ratings (``ratings.services.live_ranks``). The rank is the
    position in the unfiltered list, as a published list stores it."""
    ranked = PoolMember.objects.filter(pool=pool, live_rank__isnull=False).order_by()
    if member_ids is not None:
        if not member_ids:
            return {}
        ranked = ranked.filter(member_id__in=member_ids)
    return dict(ranked.values_list("member_id", "live_rank"))


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


# --- a member's page: pools, list history, rated games, performances, half rating -----------------


@dataclass
class TournamentPerformance:
    """A member's tournament in one pool. ``games``, ``points`` and ``opponents`` cover the games
    against opponents with a rating, so that performance = average + dp(points / games) holds
    (FIDE Rating Regulations 8.1.1); the other games (against newcomers still without a first
    rating) are ``unrated``. ``change`` sums the rated games' changes (None without any: the
    games of a newcomer count towards his first rating)."""

    tournament: object
    games: int = 0
    points: float = 0.0
    opponents: list[float] = field(default_factory=list)
    change: float | None = None
    unrated: int = 0
    unrated_points: float = 0.0
    pending: int = 0

    @property
    def average(self) -> float | None:
        return sum(self.opponents) / len(self.opponents) if self.opponents else None

    @property
    def performance(self) -> int | None:
        return performance_exact(self.opponents, self.points) if self.opponents else None


def _opponent_rating(record: RatingRecord) -> float | None:
    """The rating the opponent played with: the one used in this record, else (a pending game of
    a newcomer) the one the opponent's rated records of the period used (``opponent_own``)."""
    if record.opponent_rating is not None:
        return record.opponent_rating
    return getattr(record, "opponent_own", None)


def _opponent_own() -> Subquery:
    # The rating a member plays with is the same for every game of a period: any of the
    # opponent's rated records of the period tells it.
    return Subquery(RatingRecord.objects.filter(
        pool=OuterRef("pool"), period=OuterRef("period"), member=OuterRef("opponent"),
        own_rating__isnull=False,
    ).values("own_rating")[:1])


def _with_state(records: QuerySet[RatingRecord]) -> QuerySet[RatingRecord]:
    """Annotate the member's published rating and pending games in the pool (``_mark_pending``)."""
    # Without the model's ordering (by the pool's name): one row by the unique (pool, member),
    # read from the index instead of joined and sorted once per record.
    state = PoolMember.objects.filter(pool=OuterRef("pool"), member=OuterRef("member")).order_by()
    return records.annotate(member_published=Subquery(state.values("rating")[:1]),
                            member_pending=Subquery(state.values("pending_games")[:1]))


def waits_for_period(period_id: int | None, state: str | None) -> bool:
    """A record in no period (after the open one) or in a period waiting while the one before it
    is reopened: not calculated until its period opens."""
    return period_id is None or state == PeriodState.WAITING


def _mark_pending(records: list[RatingRecord]) -> None:
    """Say per pending record whose first rating it waits for: ``waits_for_own`` when the member
    himself is a newcomer (with ``own_games`` of ``needed_games``, the rules' minimum), else it
    waits for the opponent's (Austrian national rating rules, newcomers: a game against a newcomer
    is rated once he has a first rating). A record with no calculation that is not pending waits
    for its period instead (``waits_for_period``): it lies after the open period, or in the one
    waiting while the period before it is reopened. A record with no calculation that is
    neither counts towards the member's own first rating (``counts_for_first_rating``). The
    records carry ``_with_state``'s annotations and their period."""
    for r in records:
        unperiodised = waits_for_period(r.period_id, r.period.state if r.period_id else None)
        r.waits_for_period = not r.pending and r.change is None and unperiodised
        # A newcomer's game that is neither pending nor waiting counts towards his first rating
        # (the start value of the period's end, §1.6): it has no change of its own.
        r.counts_for_first_rating = not r.pending and r.change is None and not unperiodised
        if r.pending or r.change is None:
            r.waits_for_own = r.member_published is None and r.own_rating is None
            r.own_games = r.member_pending or 0
            r.needed_games = pool_rules(r.pool).min_games


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
        if record.pending or record.change is None:
            perf.pending += 1
        else:
            perf.change = (perf.change or 0.0) + record.change
        opponent = _opponent_rating(record)
        if opponent is None:
            perf.unrated += 1
            perf.unrated_points += record.score
        else:
            perf.games += 1
            perf.points += record.score
            perf.opponents.append(opponent)
    return list(by_tournament.values())


def member_rating_blocks(member: Member) -> list[PoolBlock]:
    """One block per pool the member has a state, a list entry or a game in (three queries):
    ``member_ratings`` with the list history and every rated game with its calculation."""
    blocks: dict[int, PoolBlock] = {}
    for state in member_ratings(member):
        blocks[state.pool_id] = PoolBlock(state.pool, state)
    history = (
        # A withdrawn list (its period reopened) is not part of the history: not in the chart either.
        ListEntry.objects.filter(member=member, list__in=PublishedList.objects.published())
        .select_related("list__pool", "list__period").order_by("list__valid_from", "list__pk")
    )
    for entry in history:
        blocks.setdefault(entry.list.pool_id, PoolBlock(entry.list.pool, None)).history.append(entry)
    records = list(
        _with_state(RatingRecord.objects.filter(member=member))
        .annotate(opponent_own=_opponent_own())
        .select_related("pool", "period", "opponent", "game__round__tournament")
        .order_by("played_on", "game__round__tournament__start_date", "game__round__number", "pk")
    )
    _mark_pending(records)
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
    awaited: list[Member] = field(default_factory=list)  # pending: whose first rating (``awaited``)

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

    @staticmethod
    def _waits(record: RatingRecord | None) -> bool:
        # Not calculated because its rating period is not open yet (``waits_for_period``).
        return (record is not None and not record.pending and record.change is None
                and waits_for_period(record.period_id, getattr(record, "period_state", None)))

    @staticmethod
    def _first(record: RatingRecord | None) -> bool:
        # Rated, without a change of its own: the game counts towards a newcomer's first rating.
        return (record is not None and not record.pending and record.change is None
                and not BoardChange._waits(record))

    @property
    def white_waits_for_period(self) -> bool:
        return self._waits(self.white)

    @property
    def black_waits_for_period(self) -> bool:
        return self._waits(self.black)

    @property
    def white_first_rating(self) -> bool:
        return self._first(self.white)

    @property
    def black_first_rating(self) -> bool:
        return self._first(self.black)


def game_rating_changes(game_ids: Iterable[int]) -> dict[int, list[BoardChange]]:
    """{game id: [BoardChange per pool]} for the games that have rating records. One query.
    The records hold what a board shows (pool and name, colour, pending, change); on PostgreSQL
    they are read by a prepared statement (a board's save shows them, and the ORM took longer
    to build the query than the database to answer)."""
    changes: dict[int, dict[int, BoardChange]] = defaultdict(dict)
    if server_bound():
        records = _board_records(list(game_ids))
    else:
        records = RatingRecord.objects.filter(game_id__in=list(game_ids)).select_related("pool")
        records = records.annotate(period_state=F("period__state")).order_by("pool__name", "pk")
    for record in records:
        board = changes[record.game_id].setdefault(record.pool_id, BoardChange(pool=record.pool))
        if record.white:
            board.white = record
        else:
            board.black = record
    found = {game_id: list(pools.values()) for game_id, pools in changes.items()}
    boards_awaited(found)
    return found


# What ``game_rating_changes`` reads of a record (in the model's order of fields, as ``from_db``
# takes them) and its pool's name.
_BOARD_RECORD = ("id", "pool_id", "period_id", "game_id", "white", "pending", "change")
_BOARD_SQL = (
    f"SELECT r.id, r.pool_id, r.period_id, r.game_id, r.white, r.pending, r.change, p.name, pe.state "
    f"FROM {RatingRecord._meta.db_table} AS r JOIN {RatingPool._meta.db_table} AS p ON p.id = r.pool_id "
    f"LEFT JOIN {RatingPeriod._meta.db_table} AS pe ON pe.id = r.period_id "
    "WHERE r.game_id {} ORDER BY p.name, r.id"
)
# One game (a board saved or drawn again) without an array: PostgreSQL then keeps the prepared
# statement's generic plan instead of planning it anew at each run.
_BOARD_ONE_SQL, _BOARD_MANY_SQL = _BOARD_SQL.format("= %s"), _BOARD_SQL.format("= ANY(%s)")


def _board_records(game_ids: list[int]) -> list[RatingRecord]:
    """The records of ``game_ids`` with their pools (only the fields a board shows), PostgreSQL."""
    alias = connection.alias
    records = []
    one = len(game_ids) == 1
    rows = plain_rows(_BOARD_ONE_SQL if one else _BOARD_MANY_SQL, game_ids if one else [game_ids])
    for *values, pool_name, period_state in rows:
        record = RatingRecord.from_db(alias, _BOARD_RECORD, values)
        record.pool = RatingPool.from_db(alias, ("id", "name"), (record.pool_id, pool_name))
        record.period_state = period_state
        records.append(record)
    return records


def games_closed_periods(games: list[Game], tournament: Tournament) -> dict[int, RatingPeriod]:
    """{game id: the closed rating period (with its pool) that keeps the game from being
    changed} for the games of ``tournament`` that the result service would refuse: those dated
    in a closed period of a pool rating the tournament, and those whose records lie in one (the
    same rule as ``services.results``, read without locks). Two queries."""
    starts = dict(tournament_pools(tournament).values_list("pk", "start_date"))
    closed = list(RatingPeriod.objects.filter(state=PeriodState.CLOSED).filter(
        Q(pool__in=list(starts)) | Q(records__game__in=[g.pk for g in games])
    ).select_related("pool").distinct().order_by("start"))
    if not closed:
        return {}
    held = defaultdict(set)
    for game_id, period_id in RatingRecord.objects.filter(
        game__in=[g.pk for g in games], period__in=closed
    ).values_list("game_id", "period_id"):
        held[game_id].add(period_id)
    found = {}
    for game in games:
        day = game.played_on
        period = next((p for p in closed if p.pk in held[game.pk]), None) or next(
            (p for p in closed
             if p.pool_id in starts and starts[p.pool_id] <= day and p.start <= day <= p.end), None)
        if period is not None:
            found[game.pk] = period
    return found


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
    # Over the rated games against a rated opponent: chess-results' Ø, W − We and Rp.
    rated_points: float = 0.0
    opponent_ratings: list[float] = field(default_factory=list)

    @property
    def average_opponent(self) -> int | None:
        """Ø: the average rating of the rated games' opponents, rounded."""
        if not self.opponent_ratings:
            return None
        return round_half_away(sum(self.opponent_ratings) / len(self.opponent_ratings))

    @property
    def points_over_expected(self) -> float | None:
        """W − We: points scored minus points expected in the rated games."""
        if not self.opponent_ratings:
            return None
        return self.rated_points - self.expected

    @property
    def performance(self) -> int | None:
        """Rp: average rated opponent rating + dp(p) (FIDE Rating Regulations 8.1.1)."""
        return performance_exact(self.opponent_ratings, self.rated_points)

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


def _evaluation_add(row: PlayerEvaluation, *, score: float, expected: float | None, change: float | None,
                    pending: bool, opponent_rating: float | None, own_rating: float | None,
                    factor: float | None) -> None:
    """Count one record of the player in ``row``: a pending game apart, a rated one in the sums."""
    if pending or change is None:
        row.pending += 1
        row.pending_points += score
        return
    row.games += 1
    row.points += score
    row.expected += expected or 0.0
    row.change += change
    if opponent_rating is not None:
        row.rated_points += score
        row.opponent_ratings.append(opponent_rating)
    if row.own_rating is None:
        row.own_rating = own_rating
    if row.factor is None:
        row.factor = factor


def _evaluation_sort(pools: dict[int, PoolEvaluation]) -> list[PoolEvaluation]:
    for evaluation in pools.values():
        evaluation.rows.sort(key=lambda r: (r.start_rank is None, r.start_rank or 0, str(r.member)))
    return list(pools.values())


# The records in the evaluation's order, within each pool (the pools go by name): by round and board.
_GAMES_ORDER = ("game__round__number", "game__board")


def tournament_evaluation(
    tournament: Tournament, pool: RatingPool | None = None, *, member: Member | int | None = None
) -> list[PoolEvaluation]:
    """Per pool that rated the tournament (or only ``pool``), per player in starting-rank order
    (or only ``member``): rating, rated games, points, expected points, factor, change and the
    per-game calculation (chess-results' "Elo evaluation"), pending games apart with whose first
    rating they wait for. The page's table without the per-game calculation is
    ``tournament_evaluation_summary``.

    Five short queries: the records with their games and periods; then their members and
    opponents, pools, starting ranks and the members' states in the pools, each by key. (Joined
    into one, PostgreSQL expects each round to hold a federation's average round and reads all
    members and games, for hundreds of milliseconds.)"""
    records = (
        RatingRecord.objects.filter(game__round__tournament=tournament)
        .select_related("period", "game__round").order_by(*_GAMES_ORDER)
    )
    if pool is not None:
        records = records.filter(pool=pool)
    if member is not None:
        records = records.filter(member=member)
    records = list(records)
    players = {r.member_id for r in records} | {r.opponent_id for r in records}
    members = Member.objects.order_by().in_bulk(players)
    pools_by_name = list(RatingPool.objects.filter(pk__in={r.pool_id for r in records}).order_by("name"))
    position = {p.pk: i for i, p in enumerate(pools_by_name)}
    member_ids = {r.member_id for r in records}
    ranks = dict(TournamentPlayer.objects.filter(tournament=tournament, member_id__in=member_ids)
                 .order_by().values_list("member_id", "start_rank"))
    states = {(pool_id, member_id): (rating, pending) for pool_id, member_id, rating, pending in
              PoolMember.objects.filter(pool__in=pools_by_name, member_id__in=member_ids)
              .order_by().values_list("pool_id", "member_id", "rating", "pending_games")}
    for record in records:
        record.member, record.opponent = members[record.member_id], members[record.opponent_id]
        record.pool = pools_by_name[position[record.pool_id]]
        record.start_rank = ranks.get(record.member_id)
        record.member_published, record.member_pending = states.get((record.pool_id, record.member_id),
                                                                    (None, None))
    records.sort(key=lambda r: position[r.pool_id])  # stable: each pool's records in games' order
    _mark_pending(records)
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
        _evaluation_add(row, score=record.score, expected=record.expected, change=record.change,
                        pending=record.pending, opponent_rating=record.opponent_rating,
                        own_rating=record.own_rating, factor=record.factor)
    return _evaluation_sort(pools)


def tournament_evaluation_summary(tournament: Tournament) -> list[PoolEvaluation]:
    """``tournament_evaluation``'s rows with the same figures but without their records (the
    page's table; a player's calculation comes on demand): the records' numbers read as tuples,
    one model object per pool and per player only. Four queries."""
    records = (
        # In games' order; the pools are put in order of their names below (sorting the records
        # by the pool's name would compare the name's text once per record).
        RatingRecord.objects.filter(game__round__tournament=tournament).order_by(*_GAMES_ORDER)
        .values_list("pool_id", "member_id", "score", "expected", "change", "pending", "opponent_rating",
                     "own_rating", "factor")
    )
    figures: dict[int, dict[int, PlayerEvaluation]] = {}
    for pool_id, member_id, score, expected, change, pending, opponent, own, factor in records:
        rows = figures.setdefault(pool_id, {})
        row = rows.get(member_id)
        if row is None:
            row = rows[member_id] = PlayerEvaluation(member=member_id, start_rank=None, own_rating=own,
                                                     factor=factor)
        _evaluation_add(row, score=score, expected=expected, change=change, pending=pending,
                        opponent_rating=opponent, own_rating=own, factor=factor)
    if not figures:
        return []
    member_ids = {member_id for rows in figures.values() for member_id in rows}
    members = Member.objects.order_by().in_bulk(member_ids)
    ranks = dict(TournamentPlayer.objects.filter(tournament=tournament, member_id__in=member_ids)
                 .order_by().values_list("member_id", "start_rank"))
    evaluations: dict[int, PoolEvaluation] = {}
    for pool in RatingPool.objects.filter(pk__in=figures).order_by("name"):
        rows = figures[pool.pk]
        for row in rows.values():
            row.start_rank = ranks.get(row.member)
            row.member = members[row.member]
        evaluations[pool.pk] = PoolEvaluation(pool=pool, rows=list(rows.values()))
    return _evaluation_sort(evaluations)


# --- closing a period: what stays unfinished ------------------------------------------------------


@dataclass
class UnfinishedTournament:
    tournament: Tournament
    open_games: int
    rounds: list[int]


@dataclass
class PendingMember:
    member: Member
    games: int
    newcomer: bool
    awaited: list[Member] = field(default_factory=list)  # whose first rating (``awaited``)


@dataclass
class LaterRound:
    """A paired round dated after the day an early closing ends the period on."""

    number: int
    date: datetime.date
    games: int
    results: int  # of its games, those with a result (rated now, in the period being closed)


@dataclass
class MovingTournament:
    """A running tournament whose rounds after that day fall into the next period."""

    tournament: Tournament
    rounds: list[LaterRound]

    @property
    def games(self) -> int:
        return sum(r.games for r in self.rounds)


@dataclass
class ClosePreview:
    tournaments: list[UnfinishedTournament]
    pending: list[PendingMember]
    # Closing early: the day the period then ends on, and the tournaments that run beyond it.
    early_end: datetime.date | None = None
    moving: list[MovingTournament] = field(default_factory=list)
    pending_more: int = 0  # pending members beyond ``pending_limit`` (``period_close_preview``)

    @property
    def open_games(self) -> int:
        return sum(t.open_games for t in self.tournaments)

    def __bool__(self) -> bool:
        return bool(self.tournaments or self.pending)


def _moving_tournaments(pool: RatingPool, period: RatingPeriod, end: datetime.date) -> list[MovingTournament]:
    """The pool's tournaments running on ``end`` (or with paired games dated after it) whose
    rounds dated after ``end`` and up to the period's last day fall into the next period when an
    early closing ends the period on ``end``. Two queries."""
    rated = Tournament.objects.filter(pool_tournaments_filter(pool))
    games = (
        Game.objects.with_played_on()
        .filter(round__tournament__in=rated, day__gt=end, day__lte=period.end)
        .values_list("round__tournament_id", "round__number", "day", "result")
    )
    rounds: dict[int, dict[int, LaterRound]] = defaultdict(dict)
    for tournament_id, number, day, result in games:
        later = rounds[tournament_id].setdefault(number, LaterRound(number, day, 0, 0))
        later.games += 1
        later.results += result != Result.NOT_PLAYED
    running = rated.filter(Q(pk__in=list(rounds)) | Q(start_date__lte=end, end_date__gt=end))
    return [
        MovingTournament(t, sorted(rounds[t.pk].values(), key=lambda r: r.number))
        for t in running.order_by("start_date", "name")
    ]


def period_close_preview(*, period: RatingPeriod, end: datetime.date | None = None,
                         pending_limit: int | None = None) -> ClosePreview:
    """What closing ``period`` now leaves unfinished: the pool's tournaments with paired games
    dated inside the period and no result yet (they can no longer be entered once it is closed,
    unless the period is reopened), and the members whose games stay pending (a newcomer's games
    wait for the first rating, ratings.md §1.7) and move to the next period. Games dated after
    the period's end are not affected by closing it. ``end``: the day an early closing ends the
    period on (docs/rules.md §4.3); the running tournaments' rounds after it are listed, as they
    fall into the next period. Two queries (four when closing early)."""
    pool = period.pool
    last = end or period.end
    rows = (
        Game.objects.with_played_on()
        .filter(round__tournament__in=Tournament.objects.filter(pool_tournaments_filter(pool)),
                result=Result.NOT_PLAYED, day__gte=max(period.start, pool.start_date), day__lte=last)
        .values_list("round__tournament_id", "round__number")
    )
    by_tournament: dict[int, UnfinishedTournament] = {}
    found: dict[int, list[int]] = defaultdict(list)
    for tournament_id, number in rows:
        found[tournament_id].append(number)
    # (``division_id``: a league division's results are entered on the league's pages.)
    unfinished = Tournament.objects.filter(pk__in=found).annotate(division_id=Max("division__id"))
    for tournament in unfinished.order_by("start_date", "name"):
        numbers = found[tournament.pk]
        by_tournament[tournament.pk] = UnfinishedTournament(tournament, len(numbers), sorted(set(numbers)))
    pending = (
        RatingRecord.objects.filter(pool=pool, period=period, pending=True)
        .values("member_id").annotate(games=Count("pk")).order_by()
    )
    counts = {row["member_id"]: row["games"] for row in pending}
    newcomers = set(
        PoolMember.objects.filter(pool=pool, member_id__in=counts, rating__isnull=True)
        .values_list("member_id", flat=True)
    )
    members = Member.objects.filter(pk__in=counts).order_by("last_name", "first_name", "pk")
    if pending_limit is not None:  # (the rest counted: a federation's newcomers are thousands)
        members = members[:pending_limit]
    members = list(members)
    awaited = members_awaited(pool_id=pool.pk, period_id=period.pk,
                              member_ids=[m.pk for m in members]) if members else {}
    return ClosePreview(
        pending_more=max(0, len(counts) - pending_limit) if pending_limit is not None else 0,
        tournaments=list(by_tournament.values()),
        pending=[PendingMember(m, counts[m.pk], m.pk in newcomers, awaited.get(m.pk, [])) for m in members],
        early_end=end,
        moving=_moving_tournaments(pool, period, end) if end is not None and end < period.end else [],
    )


def tournament_outside_periods(*, tournament: Tournament, pool: RatingPool) -> str:
    """A notice when no game day of ``tournament`` lies in a rating period of ``pool`` (nor after
    the pool's start), so that rating it changes nobody's rating; "" when some day does."""
    start = tournament.start_date
    end = tournament.end_date or start
    inside = end >= pool.start_date and RatingPeriod.objects.filter(
        pool=pool, start__lte=end, end__gte=start).exists()
    if inside:
        return ""
    return _("The tournament (%(start)s–%(end)s) lies outside every rating period of “%(pool)s”: "
             "its games change no rating.") % {
        "start": date_format(start, "SHORT_DATE_FORMAT"), "end": date_format(end, "SHORT_DATE_FORMAT"),
        "pool": pool.name}
# --- the tournament pages: which national rating they show ---------------------------------------


def tournament_rating_pool(tournament: Tournament) -> RatingPool | None:
    """The pool whose national rating the tournament's pages show: the first that rates it."""

    return tournament_pools(tournament).first()


@dataclass(frozen=True)
class PoolRating:
    published: int | None  # the current published rating, rounded as lists print it
    live: int | None


def pool_ratings(pool: RatingPool | None, member_ids: Iterable[int]) -> dict[int, PoolRating]:
    """{member id: published and live rating in ``pool``} for the registration (one query)."""
    if pool is None:
        return {}
    if not isinstance(member_ids, QuerySet):
        member_ids = list(member_ids)
    rows = PoolMember.objects.filter(pool=pool, member_id__in=member_ids).values_list(
        "member_id", "rating", "live_rating")
    def whole(value):
        return None if value is None else round_half_away(value)

    return {m: PoolRating(whole(r), whole(live)) for m, r, live in rows}


@dataclass
class WaitingGames:
    """The games of a pool whose rating waits, by the reason (``waits_for_period``, pending)."""

    after_open_period: int = 0  # dated after the open period: rated once it is closed
    behind_reopened: int = 0  # in a period waiting while the one before it is reopened
    newcomers: int = 0  # waiting for a newcomer's first rating (his own or his opponent's)
    awaited: list = field(default_factory=list)  # [(newcomer, his pending games)] (``awaited``)

    @property
    def total(self) -> int:
        return self.after_open_period + self.behind_reopened + self.newcomers


def pools_waiting_games(*, pool_ids: Iterable[int] | None = None) -> dict[int, WaitingGames]:
    """{pool id: WaitingGames} for the pools with waiting games (of ``pool_ids``). One query,
    counted by the database (a game counts once per reason)."""
    records = RatingRecord.objects.filter(change__isnull=True)
    if pool_ids is not None:
        records = records.filter(pool_id__in=list(pool_ids))
    waiting: dict[int, WaitingGames] = {}
    rows = records.values_list("pool_id", "pending", "period_id", "period__state").annotate(
        games=Count("game_id", distinct=True)).order_by()
    for pool_id, pending, period_id, state, games in rows:
        entry = waiting.setdefault(pool_id, WaitingGames())
        if pending:
            entry.newcomers += games
        elif period_id is None:
            entry.after_open_period += games
        elif state == PeriodState.WAITING:
            entry.behind_reopened += games
    for pool_id, newcomers in pools_awaited(pool_ids=[p for p, e in waiting.items() if e.newcomers]).items():
        waiting[pool_id].awaited = newcomers
    return {pool_id: entry for pool_id, entry in waiting.items() if entry.total}
