"""Development factor F / K for every rule set."""

from __future__ import annotations

import math
from bisect import bisect_right

from ratings.rules.presets import Rules

__all__ = ["EGF_CON", "development_factor", "egf_2021_bonus", "egf_con", "k_games_capped"]

# EGF/Elo comparison (docs/rules.md §4): con by GoR, linear in between, 116 below 100, 10 above 2700.
EGF_CON = (
    (100, 116), (200, 110), (300, 105), (400, 100), (500, 95), (600, 90), (700, 85), (800, 80),
    (900, 75), (1000, 70), (1100, 65), (1200, 60), (1300, 55), (1400, 51), (1500, 47), (1600, 43),
    (1700, 39), (1800, 35), (1900, 31), (2000, 27), (2100, 24), (2200, 21), (2300, 18), (2400, 15),
    (2500, 13), (2600, 11), (2700, 10),
)
_CON_R = [r for r, _ in EGF_CON]


def egf_con(rating: float) -> float:
    if rating <= EGF_CON[0][0]:
        return float(EGF_CON[0][1])
    if rating >= EGF_CON[-1][0]:
        return float(EGF_CON[-1][1])
    i = bisect_right(_CON_R, rating) - 1
    (r0, c0), (r1, c1) = EGF_CON[i], EGF_CON[i + 1]
    return c0 + (c1 - c0) * (rating - r0) / (r1 - r0)


def egf_2021_bonus(rating: float) -> float:
    """EGF rating system 2021: anti-deflation bonus per game: ln(1 + e^((2300 - r)/80)) / 5."""
    return math.log1p(math.exp((2300.0 - rating) / 80.0)) / 5.0


def development_factor(
    rules: Rules,
    *,
    rating: float,
    games_count: int,
    birth_year: int | None = None,
    year: int | None = None,
    reached_2400: bool = False,
    peak_rating: float | None = None,
) -> float:
    """F (oesb), K (fide, dsb) or con (egf) of a rated player; games_count is the career
    count on the last published list (0 when unknown); peak_rating is the highest published
    rating the player ever reached (None when unknown: the current rating stands for it)."""
    method = rules.factor
    if method == "oesb":
        f = (3400.0 - rating) ** 2 / 100000.0
        if rules.factor_reduction and games_count > 0:
            f = min(f, rules.reduction_numerator / games_count)
        return f
    if method == "fide":
        if games_count < rules.k_new_games:
            return rules.k_new
        junior = (
            rules.k_junior_age is not None
            and birth_year is not None
            and year is not None
            # "under 18 during the calendar year": still 17 at its start.
            and year - birth_year <= rules.k_junior_age
        )
        if junior and rating < rules.k_junior_below:
            return rules.k_new
        # FIDE Rating Regulations 8.3.3: K 10 once a player has reached 2400, ever.
        if reached_2400 or rating >= rules.k_high_from or (
            peak_rating is not None and peak_rating >= rules.k_high_from
        ):
            return rules.k_high
        return rules.k_standard
    if method == "constant":
        return rules.constant_factor
    if method == "egf-classic":
        return egf_con(rating)
    return ((3300.0 - rating) / 200.0) ** 1.6


def k_games_capped(rules: Rules, k: float, games: int) -> float:
    """FIDE Rating Regulations: K x n per period at most 700; K is then the largest whole number within."""
    if rules.k_games_cap is None or games == 0 or k * games <= rules.k_games_cap:
        return k
    return float(math.floor(rules.k_games_cap / games))
