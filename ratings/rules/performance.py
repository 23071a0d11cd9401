"""Performance ratings (docs/rules.md §2): exact with the FIDE dp table, and the DSB 1990 quick formula."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ratings.rules.rounding import round_half_away

__all__ = ["DP_TABLE", "dp", "performance_exact", "performance_from_average", "performance_quick"]

# FIDE Rating Regulations 8.1.1: dp by p in hundredths, 50 ... 100; dp(1 - p) = -dp(p).
DP_TABLE = dict(zip(range(100, 49, -1), (
    800, 677, 589, 538, 501, 470, 444, 422, 401, 383, 366, 351, 336, 322, 309, 296, 284, 273, 262,
    251, 240, 230, 220, 211, 202, 193, 184, 175, 166, 158, 149, 141, 133, 125, 117, 110, 102, 95,
    87, 80, 72, 65, 57, 50, 43, 36, 29, 21, 14, 7, 0,
)))


def dp(p: float) -> int:
    """dp for a score fraction p, p rounded to two decimals (half away from zero)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"score fraction {p!r} is not within 0 and 1")
    hundredths = int(round_half_away(p * 100))
    if hundredths >= 50:
        return DP_TABLE[hundredths]
    return -DP_TABLE[100 - hundredths]


def _average(opponent_ratings: Sequence[float]) -> float:
    return math.fsum(opponent_ratings) / len(opponent_ratings)


def performance_from_average(average: float, p: float) -> int:
    """Exact performance from the average opponent rating and the score fraction."""
    return round_half_away(average + dp(p))


def performance_exact(opponent_ratings: Sequence[float], points: float) -> int | None:
    """Average opponent rating + dp(points / games), rounded; None without games."""
    if not opponent_ratings:
        return None
    return round_half_away(_average(opponent_ratings) + dp(points / len(opponent_ratings)))


def performance_quick(opponent_ratings: Sequence[float], points: float) -> int | None:
    """DSB 1990 ELO list explanation: average - 400 + 800 x p, rounded; None without games."""
    if not opponent_ratings:
        return None
    p = points / len(opponent_ratings)
    return round_half_away(_average(opponent_ratings) - 400 + 800 * p)
