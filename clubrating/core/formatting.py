"""Ratings and rating changes as every page, print-out and export shows them.

A rating is a code more than a quantity ("1835", not "1.835"): never digit-grouped, nor are
identifiers (FIDE IDs). Chess ratings are whole numbers, EGF ratings keep their three decimals.
Changes are always signed, with a real minus: a list's change as it was rounded, a change not yet
rounded (one game's, a tournament's sum) to ``CHANGE_DECIMALS``. Other decimals (points, expected
scores, averages) use the language's decimal mark, never grouped.

Pages (``{% load numbers %}``), the admin, the charts, the PDFs and the exports all format their
numbers here.
"""

from __future__ import annotations

from django.utils import numberformat
from django.utils.formats import get_format

from ratings.rules.rounding import round_half_away

MINUS = "\u2212"
# A change not yet rounded to the list's whole number is shown to one decimal, as the rules' worked
# examples write them ("+17.5 / −15.4", docs/rules.md): what is published is the period's whole total.
CHANGE_DECIMALS = 1


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


def rating_text(value: float | None, empty: str = "—") -> str:
    """"1835", or "2109,306" for an EGF rating (decimal separator of the language); ``empty`` for None."""
    if value is None or value == "":
        return empty
    value = float(value)
    if value.is_integer():
        return str(int(value))
    return numberformat.format(value, get_format("DECIMAL_SEPARATOR"), 3, grouping=0)


def rating_value(value: float | None) -> int | float | None:
    """A rating (or a list's change) as a number in the API's JSON, exactly as ``rating_text``
    shows it: a whole number as an integer ("1835" → 1835), an EGF rating with its three
    decimals (2109.306); None stays None."""
    if value is None or value == "":
        return None
    value = float(value)
    if value.is_integer():
        return int(value)
    return round_half_away(value, 3)


def change_text(value: float | None, empty: str = "") -> str:
    """A rating change as ``signed`` shows it with up to three decimals; ``empty`` when there is none."""
    if value is None or value == "":
        return empty
    return signed(float(value), -3)


def game_change_text(value: float | None, empty: str = "") -> str:
    """A change not yet rounded (one game's, a tournament's sum): signed, ``CHANGE_DECIMALS`` places."""
    if value is None or value == "":
        return empty
    return signed(float(value), CHANGE_DECIMALS)


def id_text(value: int | str | None, empty: str = "") -> str:
    """An identifier such as a FIDE ID: its digits as they are ("1600238"), never grouped."""
    if value is None or value == "":
        return empty
    return str(value)


def decimal_text(value: float | int | None, places: int = 1) -> str:
    """``value`` rounded half away from zero to ``places``, localised, never grouped; "" for None."""
    if value is None or value == "":
        return ""
    rounded = round_half_away(float(value), places)
    # grouping=0: even with USE_THOUSAND_SEPARATOR, a number here is never split in groups.
    text = numberformat.format(rounded, get_format("DECIMAL_SEPARATOR"), places, grouping=0)
    return text.replace("-", MINUS)


def points_text(value: float | int | None) -> str:
    """Tournament points with one decimal ("3,5", "4,0"), as in the standings."""
    return decimal_text(value, 1)
