"""The tournament pages: rating changes per board, the rating evaluation, and which national rating
they show."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import F, Q, QuerySet

from clubrating.clubs.models import Member
from clubrating.core.db import fetch_rows, plain_rows, server_bound
from clubrating.tournaments.models import Game, Tournament, TournamentPlayer
from clubrating.tournaments.selectors.plain import keys_in
from ratings.awaited import boards_awaited
from ratings.models import PeriodState, PoolMember, RatingPeriod, RatingPool, RatingRecord
from ratings.rules.performance import performance_exact
from ratings.rules.rounding import round_half_away
from ratings.selectors.member import _mark_pending, waiting_calculation_hidden, waits_for_period
from ratings.services.pools import tournament_pools


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
        waiting_calculation_hidden(record, record.period_state)
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


def _game_ids(tournament: Tournament) -> list[int]:
    """The tournament's games, read first by its rounds' index: given them as keys, the records
    are read by their game's index. (Filtered through the join instead, PostgreSQL expects a
    tournament to hold an average share of a federation's games and, at 100,000 members, read all
    its million records.)"""
    return list(Game.objects.filter(round__tournament=tournament).order_by().values_list("pk", flat=True))


def tournament_evaluation(
    tournament: Tournament, pool: RatingPool | None = None, *, member: Member | int | None = None
) -> list[PoolEvaluation]:
    """Per pool that rated the tournament (or only ``pool``), per player in starting-rank order
    (or only ``member``): rating, rated games, points, expected points, factor, change and the
    per-game calculation (chess-results' "Elo evaluation"), pending games apart with whose first
    rating they wait for. The page's table without the per-game calculation is
    ``tournament_evaluation_summary``.

    Six short queries: the tournament's games; the records with their games and periods; then
    their members and opponents, pools, starting ranks and the members' states in the pools,
    each by key. (Joined into one, PostgreSQL expects each round to hold a federation's average
    round and reads all members and games, for hundreds of milliseconds.)"""
    records = (
        RatingRecord.objects.filter(game_id__in=_game_ids(tournament))
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
        waiting_calculation_hidden(record, record.period.state if record.period_id else None)
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


# What the evaluation's table reads of each record, with its period's state.
_SUMMARY_FIELDS = ("game_id", "pool_id", "member_id", "score", "expected", "change", "pending",
                   "opponent_rating", "own_rating", "factor", "period__state")


class EvaluatedMember:
    """A player of the evaluation's table: his key and name (``str()`` as the model's)."""

    __slots__ = ("first_name", "last_name", "pk")

    def __init__(self, pk: int, first_name: str, last_name: str) -> None:
        self.pk, self.first_name, self.last_name = pk, first_name, last_name

    @property
    def id(self) -> int:
        return self.pk

    def __str__(self) -> str:
        return Member.full_name.fget(self)


def tournament_evaluation_summary(tournament: Tournament, *,
                                  games: dict[int, tuple[int, int]] | None = None,
                                  ranks: dict[int, int | None] | None = None) -> list[PoolEvaluation]:
    """``tournament_evaluation``'s rows with the same figures but without their records (the
    page's table; a player's calculation comes on demand): the records' numbers read as tuples,
    one model object per pool, each player his key and name (``EvaluatedMember``). ``games``:
    {game id: (round number, board)} of the tournament when the caller has read them (the rows its
    version was read from), else read first; ``ranks``: {member id: starting rank} of its players
    likewise. Three to five queries."""
    # In games' order (``_GAMES_ORDER``), sorted here by the games read first: ordered in SQL, the
    # records are joined to their games and PostgreSQL reads all the federation's games to do it.
    # The pools are put in order of their names below (sorting the records by the pool's name
    # would compare the name's text once per record).
    order = games if games is not None else {
        pk: (number, board) for pk, number, board in Game.objects.filter(round__tournament=tournament)
        .order_by().values_list("pk", "round__number", "board")}
    # Plain tuples through the binary cursor: 2,500 records' numbers are not printed and parsed.
    records = sorted(fetch_rows(keys_in(RatingRecord.objects.order_by(), "game", order)
                                .values_list(*_SUMMARY_FIELDS)), key=lambda record: order[record[0]])
    waiting = PeriodState.WAITING
    figures: dict[int, dict[int, PlayerEvaluation]] = {}
    for _game, pool_id, member_id, score, expected, change, pending, opponent, own, factor, state in records:
        rows_of_pool = figures.get(pool_id)
        if rows_of_pool is None:
            rows_of_pool = figures[pool_id] = {}
        row = rows_of_pool.get(member_id)
        if state == waiting:  # (``waiting_calculation_hidden``)
            expected = change = opponent = own = factor = None
            pending = False
        if row is None:
            row = rows_of_pool[member_id] = PlayerEvaluation(member=member_id, start_rank=None,
                                                             own_rating=own, factor=factor)
        _evaluation_add(row, score=score, expected=expected, change=change, pending=pending,
                        opponent_rating=opponent, own_rating=own, factor=factor)
    if not figures:
        return []
    member_ids = {member_id for rows_of_pool in figures.values() for member_id in rows_of_pool}
    members = {pk: EvaluatedMember(pk, first, last) for pk, first, last in fetch_rows(
        keys_in(Member.objects.order_by(), "id", member_ids).values_list("id", "first_name", "last_name"))}
    if ranks is None:
        ranks = dict(keys_in(TournamentPlayer.objects.filter(tournament=tournament), "member", member_ids)
                     .order_by().values_list("member_id", "start_rank"))
    evaluations: dict[int, PoolEvaluation] = {}
    for pool in RatingPool.objects.filter(pk__in=figures).order_by("name"):
        rows_of_pool = figures[pool.pk]
        for row in rows_of_pool.values():
            row.start_rank = ranks.get(row.member)
            row.member = members[row.member]
        evaluations[pool.pk] = PoolEvaluation(pool=pool, rows=list(rows_of_pool.values()))
    return _evaluation_sort(evaluations)


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
