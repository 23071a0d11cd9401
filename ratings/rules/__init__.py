"""The rating engine: pure Python, no Django (a test enforces it)."""

from ratings.rules.engine import evaluate_period
from ratings.rules.expectation import expected_score
from ratings.rules.factor import development_factor
from ratings.rules.period import GameCalc, GameIn, PeriodResult, PlayerIn, PlayerResult
from ratings.rules.presets import DEFAULT_RULES, PRESETS, Rules, UnknownRules, get_rules

__all__ = [
    "DEFAULT_RULES",
    "PRESETS",
    "GameCalc",
    "GameIn",
    "PeriodResult",
    "PlayerIn",
    "PlayerResult",
    "Rules",
    "UnknownRules",
    "development_factor",
    "evaluate_period",
    "expected_score",
    "get_rules",
]
