"""The one number format policy of the pages, prints and PDFs.

* Ratings are identifiers, not quantities: never grouped ("2107", not "2.107").
* Changes carry a sign, with a real minus: "+47,43", "−0,84"; zero has none.
* Decimals use the current language's decimal mark (German: comma), never a thousands separator.

The template filters of ``clubrating.core.templatetags.numbers`` are thin wrappers of these.
"""

from __future__ import annotations

from django.utils import numberformat
from django.utils.formats import get_format

from ratings.rules.rounding import round_half_away

__all__ = ["MINUS", "format_decimal", "format_rating", "format_signed"]

MINUS = "−"  # U+2212, the typographic minus


def format_decimal(value: float | int | None, places: int = 1) -> str:
    """``value`` rounded half away from zero to ``places``, localised, never grouped."""
    if value in (None, ""):
        return ""
    rounded = round_half_away(float(value), places)
    # grouping=0: even with USE_THOUSAND_SEPARATOR, a number here is never split in groups.
    text = numberformat.format(rounded, get_format("DECIMAL_SEPARATOR"), places, grouping=0)
    return text.replace("-", MINUS)


def format_rating(value: float | int | None) -> str:
    """A rating as a whole number without grouping; "" when there is none."""
    return format_decimal(value, 0)


def format_signed(value: float | int | None, places: int = 2) -> str:
    """A change: "+47,43", "−0,84", "0,00" (the sign of the rounded value)."""
    if value in (None, ""):
        return ""
    rounded = round_half_away(float(value), places)
    text = format_decimal(abs(rounded), places)
    if rounded > 0:
        return "+" + text
    if rounded < 0:
        return MINUS + text
    return text
