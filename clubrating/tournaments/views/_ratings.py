"""Reads of the ratings app that the tournament pages show (rating changes, rating evaluation).

Kept here, next to the only pages that use them, as plain queries on ``ratings.models``; each
function runs a fixed number of queries whatever the number of games.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.formats import number_format

from ratings.models import RatingRecord
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
    evaluation"). Pending games (against newcomers, docs/rules.md §1.7) count as games but have
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
        if row.own_rating is None:
            row.own_rating = record.own_rating
        if row.factor is None:
            row.factor = record.factor
    for evaluation in pools.values():
        evaluation.rows.sort(key=lambda r: (r.start_rank is None, r.start_rank or 0, str(r.member)))
    return list(pools.values())


def signed(value: float | None, decimals: int = 1) -> str:
    """"+7,3" / "−7,3" in the current language's number format (a real minus sign)."""
    if value is None:
        return ""
    # number_format cuts digits off instead of rounding: round first (half away from zero).
    rounded = round_half_away(value, decimals)
    text = number_format(abs(rounded), decimals, use_l10n=True)
    if rounded == 0:
        return text
    return ("+" if rounded > 0 else "−") + text
