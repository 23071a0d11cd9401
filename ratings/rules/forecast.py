"""Expected scores and team-match forecasts (docs/rules.md §3, DSB 1990 ELO list explanation)."""

from __future__ import annotations

from collections.abc import Sequence

from ratings.rules.expectation import expected_score
from ratings.rules.presets import Rules

__all__ = ["quick_expectation", "team_forecast_exact", "team_forecast_quick"]

QUICK_CAP = 400  # DSB 1990 explanation: the quick formula holds up to a difference of 400


def quick_expectation(d: float) -> float:
    """DSB 1990 explanation: 50 % + D/8 %, D capped at +-400."""
    d = max(-QUICK_CAP, min(QUICK_CAP, d))
    return 0.5 + d / 800


def _boards(own: Sequence[float], other: Sequence[float]) -> int:
    if len(own) != len(other):
        raise ValueError(f"{len(own)} boards against {len(other)}")
    return len(own)


def team_forecast_quick(own: Sequence[float], other: Sequence[float]) -> float:
    """DSB 1990 explanation: (sum own - sum other) / 800 + boards / 2; independent of the board order."""
    boards = _boards(own, other)
    return (sum(own) - sum(other)) / 800 + boards / 2


def team_forecast_exact(rules: Rules, own: Sequence[float], other: Sequence[float]) -> float:
    """Sum of the pool's expectation board by board (board i against board i)."""
    _boards(own, other)
    return sum(expected_score(rules, a, b) for a, b in zip(own, other))
