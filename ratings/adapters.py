"""Models -> the engine's plain data (ratings.rules), and back to numbers for storage."""

import dataclasses

from ratings.models import Expectation, RatingPool
from ratings.rules.presets import Rules, get_rules


def pool_rules(pool: RatingPool) -> Rules:
    rules = get_rules(pool.rules)
    if pool.expectation and pool.expectation != Expectation.PRESET:
        rules = dataclasses.replace(rules, expectation=pool.expectation)
    return rules


def as_number(value: float | None) -> int | float | None:
    """Whole ratings as int (chess), others unchanged (EGF keeps decimals)."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value
