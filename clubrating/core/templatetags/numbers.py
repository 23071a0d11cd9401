"""Ratings and rating changes as text: never digit-grouped, changes signed with a real minus.

A rating is a code more than a quantity ("1835", not "1.835"); chess ratings are whole numbers,
EGF ratings keep their three decimals (decimal separator of the language).
"""

from __future__ import annotations

from django import template
from django.utils import numberformat
from django.utils.formats import get_format

register = template.Library()

MINUS = "−"  # U+2212


def rating_text(value: float | None, empty: str = "—") -> str:
    if value is None or value == "":
        return empty
    value = float(value)
    if value.is_integer():
        return str(int(value))
    return numberformat.format(value, get_format("DECIMAL_SEPARATOR"), 3, grouping=0)


def change_text(value: float | None, empty: str = "") -> str:
    """"+5", "−14", "0"; ``empty`` when there is no change (not rated in the period)."""
    if value is None or value == "":
        return empty
    text = rating_text(abs(float(value)))
    if float(value) > 0:
        return f"+{text}"
    return f"{MINUS}{text}" if float(value) < 0 else text


@register.filter
def rating(value, empty: str = "—") -> str:
    return rating_text(value, empty)


@register.filter
def rating_change(value, empty: str = "") -> str:
    return change_text(value, empty)
