"""International half rating ("Halbzahl", Austrian national rating rules; docs/rules.md §1.9)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ratings.rules.performance import performance_exact
from ratings.rules.rounding import round_half_away

__all__ = ["FULL_RATING_GAMES", "HALF_RATING_GAMES", "half_rating", "half_rating_valid_until"]

HALF_RATING_GAMES = 4  # ÖSB rules: "Für eine Halbzahl sind mindestens 4 Partien notwendig"
FULL_RATING_GAMES = 9  # ÖSB rules: first international rating needs 9 games vs FIDE-rated players
HALF_POINT_BONUS = 12.5  # ÖSB rules: 12.5 per half point above 50 %
FURTHER_PERIODS = 3


def half_rating(opponent_fide_ratings: Sequence[float], points: float) -> int | None:
    """Half rating from games against FIDE-rated opponents; None below 4 games.

    50 %: the opponents' average; below: the exact performance; above: average + 12.5 per
    half point above 50 %. Rounded half away from zero."""
    n = len(opponent_fide_ratings)
    if n < HALF_RATING_GAMES:
        return None
    average = sum(opponent_fide_ratings) / n
    above = points - n / 2  # points above 50 %
    if above < 0:
        return performance_exact(opponent_fide_ratings, points)
    return round_half_away(average + HALF_POINT_BONUS * (above / 0.5))


def half_rating_valid_until(calculated_on: date) -> date:
    """End of the current half-year period (30.6 / 31.12) plus three further half-years."""
    half = 0 if calculated_on.month <= 6 else 1  # index of the current half-year
    last = calculated_on.year * 2 + half + FURTHER_PERIODS
    year, second = divmod(last, 2)
    return date(year, 12, 31) if second else date(year, 6, 30)
