"""Rating period calendar of a pool's rule set (docs/rules.md §1.8 and §4.3).

oesb-classic: half-years ending 30.6 and 31.12; oesb-2012/2024, fide-2005, dsb-1990: quarters;
fide-2024: months. EGF rates "one tournament at a time"; this product gives EGF pools monthly
periods, so the officer closes a period after each tournament (at most one tournament a month
keeps the EGF semantics exact).
"""

import datetime

from ratings.rules.presets import Rules


def _months_per_period(rules: Rules) -> int:
    per_year = rules.periods_per_year or 12
    return 12 // per_year


def period_bounds(rules: Rules, day: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The calendar period containing ``day``: (first day, last day)."""
    months = _months_per_period(rules)
    first_month = (day.month - 1) // months * months + 1
    start = datetime.date(day.year, first_month, 1)
    return start, next_period_start(rules, start) - datetime.timedelta(days=1)


def next_period_start(rules: Rules, start: datetime.date) -> datetime.date:
    months = _months_per_period(rules)
    month_index = start.year * 12 + start.month - 1 + months
    return datetime.date(month_index // 12, month_index % 12 + 1, 1)
