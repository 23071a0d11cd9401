"""Reads of the ratings app that the tournament pages show (rating changes, rating evaluation).

Kept here, next to the only pages that use them, as plain queries on ``ratings.models``; each
function runs a fixed number of queries whatever the number of games.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from clubrating.core.numbers import format_signed
from ratings.models import RatingRecord
from ratings.rules.performance import performance_exact
from ratings.rules.rounding import round_half_away


@dataclass
class BoardChange:
    """The rating change of both players of one game in one pool."""

    pool: object
    white: RatingRecord | None = None
    black: RatingRecord | None = None

    @staticmethod
    def _show(record: RatingRecord | None) -> str:
        if record is None or record.pending or record.change is None:
            return ""
        return signed(record.change)

    @property
    def white_change(self) -> str:
        return self._show(self.white)

    @property
    def black_change(self) -> str:
        return self._show(self.black)

    @property
    def pending(self) -> bool:
        return any(r is not None and r.pending for r in (self.white, self.black))


def published_ratings(tournament, member_ids: Iterable[int]) -> dict[int, int]:
    """{member id: published rating} in the first pool that rates ``tournament`` (the starting
    rating of a new registration); members without a rating there are left out. Two queries."""
    from ratings.models import PoolMember
    from ratings.services.pools import tournament_pools

    pool = tournament_pools(tournament).first()
    if pool is None:
        return {}
    rows = PoolMember.objects.filter(pool=pool, member_id__in=list(member_ids), rating__isnull=False)
    return {member: round_half_away(rating) for member, rating in rows.values_list("member_id", "rating")}


def game_rating_changes(game_ids: Iterable[int]) -> dict[int, list[BoardChange]]:
    """{game id: [BoardChange per pool]} for the games that have rating records."""
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
class EvaluationRow:
    member: object
    start_rank: int | None
    own_rating: float | None
    factor: float | None
    games: int = 0
    points: float = 0.0
    expected: float = 0.0
    change: float = 0.0
    pending: int = 0
    records: list = field(default_factory=list)
    # Over the games rated already (not pending): chess-results' Ø, W and the performance.
    rated_points: float = 0.0
    opponent_ratings: list = field(default_factory=list)

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
        """Rp: FIDE's exact performance, average opponent rating + dp (FIDE Rating Regulations 8.1.1)."""
        return performance_exact(self.opponent_ratings, self.rated_points)

    @property
    def change_rounded(self) -> int:
        return round_half_away(self.change)

    @property
    def change_rounded_display(self) -> str:
        return signed(self.change_rounded, 0)

    @property
    def change_display(self) -> str:
        return signed(self.change)

    @property
    def is_newcomer(self) -> bool:
        return self.own_rating is None


@dataclass
class PoolEvaluation:
    pool: object
    rows: list[EvaluationRow]


def tournament_evaluation(tournament) -> list[PoolEvaluation]:
    """Per pool that rated the tournament, per player: rating, games, points, expected points,
    factor, change (exact and rounded) and the per-game calculation (chess-results' "Elo
    evaluation"). Pending games (against newcomers, ratings.md §1.7) count as games but have
    no change yet."""
    start_ranks = dict(tournament.players.values_list("member_id", "start_rank"))
    records = (
        RatingRecord.objects.filter(game__round__tournament=tournament)
        .select_related("pool", "member", "opponent", "game__round")
        .order_by("pool__name", "game__round__number", "game__board")
    )
    pools: dict[int, PoolEvaluation] = {}
    rows: dict[tuple[int, int], EvaluationRow] = {}
    for record in records:
        evaluation = pools.setdefault(record.pool_id, PoolEvaluation(pool=record.pool, rows=[]))
        key = (record.pool_id, record.member_id)
        row = rows.get(key)
        if row is None:
            row = rows[key] = EvaluationRow(
                member=record.member, start_rank=start_ranks.get(record.member_id),
                own_rating=record.own_rating, factor=record.factor,
            )
            evaluation.rows.append(row)
        row.records.append(record)
        row.games += 1
        row.points += record.score
        if record.pending or record.change is None:
            row.pending += 1
            continue
        row.expected += record.expected or 0.0
        row.change += record.change
        if record.opponent_rating is not None:
            row.rated_points += record.score
            row.opponent_ratings.append(record.opponent_rating)
        if row.own_rating is None:
            row.own_rating = record.own_rating
        if row.factor is None:
            row.factor = record.factor
    for evaluation in pools.values():
        evaluation.rows.sort(key=lambda r: (r.start_rank is None, r.start_rank or 0, str(r.member)))
    return list(pools.values())


def signed(value: float | None, decimals: int = 1) -> str:
    """"+7,3" / "−7,3" in the current language's number format (a real minus sign)."""
    return format_signed(value, decimals)
