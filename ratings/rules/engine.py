"""The engine's entry point: one period evaluated by the evaluation that fits the rule set.

Above both evaluations: the reference (``ratings.rules.period``) and the vectorised one
(``ratings.rules.vectorised``), which builds on the reference's data types.
"""

from __future__ import annotations

from collections.abc import Iterable

from ratings.rules import vectorised
from ratings.rules.columns import GameColumns
from ratings.rules.period import GameIn, PeriodResult, PlayerIn, evaluate_period_reference
from ratings.rules.presets import Rules


def evaluate_period(
    rules: Rules, players: Iterable[PlayerIn], games: Iterable[GameIn], *, year: int | None = None
) -> PeriodResult:
    """Evaluate one period: rated players' changes, newcomers' start values, pending games.

    Rule sets whose games are evaluated independently go through the vectorised evaluation
    (``ratings.rules.vectorised``, same results); the others through
    ``evaluate_period_reference``. ``games`` may also be ``ratings.rules.columns.GameColumns``
    (one array per field: what a large period's stored records are read into)."""
    if vectorised.applies(rules):
        return vectorised.evaluate_period_vectorised(rules, players, games, year=year)
    if isinstance(games, GameColumns):
        games = games.to_games()
    return evaluate_period_reference(rules, players, games, year=year)
