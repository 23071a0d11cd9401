"""Ratings, rating changes and decimals as every page, print-out and export shows them.

A rating is a code more than a quantity ("1835", not "1.835"): never digit-grouped, nor are
identifiers (FIDE IDs). Chess ratings are whole numbers, EGF ratings keep their three decimals.
Changes are always signed, with a real minus: a list's change as it was rounded, a change not yet
rounded (one game's, a tournament's sum) to ``CHANGE_DECIMALS``. Other decimals (points, expected
scores, averages) use the language's decimal mark, never grouped.

Pages (``{% load numbers %}``), the long tables (``tournaments/views/_texts.py``, which keeps each
distinct text of a page once), the admin, the charts, the PDFs and the exports all format their
numbers here. ``NumberTexts`` is the one implementation, pure Python; the functions below use the
current language's instance, whose decimal mark is looked up once per language, not per value.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.signals import setting_changed
from django.utils.formats import get_format
from django.utils.translation import get_language

from ratings.rules.rounding import round_half_away

MINUS = "\u2212"
# A change not yet rounded to the list's whole number is shown to one decimal, as the rules' worked
# examples write them ("+17.5 / −15.4", docs/rules.md): what is published is the period's whole total.
CHANGE_DECIMALS = 1


class NumberTexts:
    """The number texts of one language, given its decimal mark ("," or ".")."""

    __slots__ = ("mark",)

    def __init__(self, mark: str) -> None:
        self.mark = mark

    def decimal(self, value: float | int | None, places: int = 1) -> str:
        """``value`` rounded half away from zero to ``places``, localised, never grouped; "" for None."""
        if value is None or value == "":
            return ""
        return self.fixed(round_half_away(float(value), places), places).replace("-", MINUS)

    def points(self, value: float | int | None) -> str:
        """Tournament points with one decimal ("3,5", "4,0"), as in the standings."""
        return self.decimal(value, 1)

    def signed(self, value: float | None, decimals: int = 0) -> str:
        """"+5", "−14", "±0" (or "+7,3" with one decimal); "" for None.

        A negative ``decimals`` shows whole numbers without decimals and others with ``-decimals``
        (as Django's ``floatformat``): "+5" but "+17,500" for ``-3``. Rounded half away from zero
        first, as the rating rules round changes; the number itself is never digit-grouped."""
        if value is None:
            return ""
        if decimals < 0:
            decimals = 0 if float(value).is_integer() else -decimals
        rounded = round_half_away(value, decimals)
        text = self.fixed(abs(rounded), decimals)
        if rounded == 0:
            return "±" + text
        return ("+" if rounded > 0 else MINUS) + text

    def rating(self, value: float | None, empty: str = "—") -> str:
        """"1835", or "2109,306" for an EGF rating (its decimals cut to three); ``empty`` for None."""
        if value is None or value == "":
            return empty
        value = float(value)
        if value.is_integer():
            return str(int(value))
        return self.fixed(value, 3)

    def change(self, value: float | None, empty: str = "") -> str:
        """A list's rating change: signed, up to three decimals; ``empty`` when there is none."""
        if value is None or value == "":
            return empty
        return self.signed(float(value), -3)

    def game_change(self, value: float | None, empty: str = "") -> str:
        """A change not yet rounded (one game's, a tournament's sum): signed, ``CHANGE_DECIMALS`` places."""
        if value is None or value == "":
            return empty
        return self.signed(float(value), CHANGE_DECIMALS)

    def fixed(self, number: float | int, places: int) -> str:
        """``number`` with exactly ``places`` decimals (further digits cut, not rounded: callers
        round first), the language's mark, an ASCII "-", no grouping: the digits Django's
        ``numberformat.format`` writes, without its settings' lookups for every value."""
        if type(number) is int and not places:
            return str(number)
        text = str(number)
        if "e" in text:  # far too big or small to be written out by str(): as Decimal
            exact = Decimal(text)
            if abs(exact) < Decimal("0." + "1".rjust(places, "0")):
                exact = Decimal("0")  # too small to reach a shown decimal
            _sign, digits, exponent = exact.as_tuple()
            if abs(exponent) + len(digits) > 200:
                coefficient, exponent = f"{exact:e}".split("e")
                return f"{self._cut(coefficient, places)}e{exponent}"
            text = f"{exact:f}"
        return self._cut(text, places)

    def _cut(self, text: str, places: int) -> str:
        sign = ""
        if text[0] == "-":
            sign, text = "-", text[1:]
        whole, _dot, digits = text.partition(".")
        digits = digits[:places]
        digits += "0" * (places - len(digits))
        return sign + whole + (self.mark + digits if digits else "")


_BY_LANGUAGE: dict[str | None, NumberTexts] = {}


def number_texts() -> NumberTexts:
    """The current language's ``NumberTexts``; its decimal mark is looked up once per language."""
    language = get_language()
    texts = _BY_LANGUAGE.get(language)
    if texts is None:
        texts = _BY_LANGUAGE[language] = NumberTexts(get_format("DECIMAL_SEPARATOR"))
    return texts


def _forget_marks(**kwargs) -> None:
    _BY_LANGUAGE.clear()  # a test changed the settings (formats, languages): look the marks up anew


setting_changed.connect(_forget_marks, dispatch_uid="clubrating.core.formatting")


def signed(value: float | None, decimals: int = 0) -> str:
    """``NumberTexts.signed`` in the current language: "+5", "−14", "±0", "+7,3"; "" for None."""
    if value is None:  # here and below: nothing to write needs no language
        return ""
    return number_texts().signed(value, decimals)


def rating_text(value: float | None, empty: str = "—") -> str:
    """"1835", or "2109,306" for an EGF rating (decimal separator of the language); ``empty`` for None."""
    if value is None or value == "":
        return empty
    if type(value) is int or (type(value) is float and value.is_integer()):
        return str(int(value))  # most ratings: whole, the same digits in every language
    return number_texts().rating(value, empty)


def rating_value(value: float | None) -> int | float | None:
    """A rating (or a list's change) as a number in the API's JSON, as ``rating_text`` shows it:
    a whole number as an integer ("1835" → 1835), an EGF rating with three decimals (2109.306);
    None stays None."""
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
    return number_texts().change(value, empty)


def game_change_text(value: float | None, empty: str = "") -> str:
    """A change not yet rounded (one game's, a tournament's sum): signed, ``CHANGE_DECIMALS`` places."""
    if value is None or value == "":
        return empty
    return number_texts().game_change(value, empty)


def id_text(value: int | str | None, empty: str = "") -> str:
    """An identifier such as a FIDE ID: its digits as they are ("1600238"), never grouped."""
    if value is None or value == "":
        return empty
    return str(value)


def decimal_text(value: float | int | None, places: int = 1) -> str:
    """``value`` rounded half away from zero to ``places``, localised, never grouped; "" for None."""
    if value is None or value == "":
        return ""
    return number_texts().decimal(value, places)


def points_text(value: float | int | None) -> str:
    """Tournament points with one decimal ("3,5", "4,0"), as in the standings."""
    if value is None or value == "":
        return ""
    return number_texts().decimal(value, 1)
