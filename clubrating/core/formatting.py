"""Rating changes as every page shows them: always signed, a real minus sign, never grouped."""

from __future__ import annotations

from django.utils import numberformat
from django.utils.formats import get_format

from ratings.rules.rounding import round_half_away

MINUS = "\u2212"


def signed(value: float | None, decimals: int = 0) -> str:
    """"+5", "−14", "±0" (or "+7,3" with one decimal) in the current language; "" for None.

    A negative ``decimals`` shows whole numbers without decimals and others with ``-decimals``
    (as Django's ``floatformat``): "+5" but "+17,500" for ``-3``. Rounded half away from zero
    first, as the rating rules round changes; the number itself is never digit-grouped."""
    if value is None:
        return ""
    if decimals < 0:
        decimals = 0 if float(value).is_integer() else -decimals
    rounded = round_half_away(value, decimals)
    text = numberformat.format(abs(rounded), get_format("DECIMAL_SEPARATOR"), decimals)
    if rounded == 0:
        return "±" + text
    return ("+" if rounded > 0 else MINUS) + text
