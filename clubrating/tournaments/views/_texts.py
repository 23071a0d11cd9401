"""The number texts of a long table, each distinct value formatted once.

A table of hundreds of players repeats few values (points in half steps, a handful of tie-break
values, the same opponents' ranks); formatting them in the view, once each, instead of through a
template filter per cell keeps a 300-player crosstable's page within its time. The texts are the
number filters' own (``clubrating.core.formatting``, ``templatetags.tiebreaks``).
"""

from __future__ import annotations

from html import escape  # Django's escape without its check for lazy texts, which costs a long table

from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.safestring import SafeString

from clubrating.core.formatting import CHANGE_DECIMALS, MINUS, rating_text, signed
from ratings.rules.rounding import round_half_away

from ..templatetags.tiebreaks import tiebreak_texts


class Texts:
    """Formats for one request (one language): ``points``, ``decimal``, ``rating``, ``tiebreaks``;
    ``escaped`` and ``cells`` give the HTML of a row's texts."""

    def __init__(self) -> None:
        self._memo: dict[tuple, str] = {}
        self._separator = get_format("DECIMAL_SEPARATOR")
        self._cells: dict[tuple[str, str], str] = {}

    def points(self, value: float | None) -> str:
        """``points_text``: one decimal."""
        return self.decimal(value, 1)

    def decimal(self, value: float | None, places: int) -> str:
        """``decimal_text``: rounded half away from zero, the language's decimal mark, the minus sign."""
        key = ("decimal", value if value else repr(value), places)  # −0.0 is not 0.0 here
        text = self._memo.get(key)
        if text is None:
            if value is None or value == "":
                text = ""
            else:
                text = self._fixed(round_half_away(float(value), places), places).replace("-", MINUS)
            self._memo[key] = text
        return text

    @staticmethod
    def rating(value: float | None, empty: str = "—") -> str:
        return rating_text(value, empty)

    def signed(self, value: float | None, places: int) -> str:
        """``formatting.signed``: "+5", "−14", "±0" (``places`` ≥ 0)."""
        key = ("signed", value if value else repr(value), places)
        text = self._memo.get(key)
        if text is None:
            if value is None or places < 0:  # "" / the whole-or-decimals form: as the function
                text = signed(value, places)
            else:
                rounded = round_half_away(value, places)
                number = self._fixed(abs(rounded), places)
                text = ("±" if rounded == 0 else "+" if rounded > 0 else MINUS) + number
            self._memo[key] = text
        return text

    def game_change(self, value: float | None) -> str:
        """``formatting.game_change_text``."""
        if value is None or value == "":
            return ""
        return self.signed(float(value), CHANGE_DECIMALS)

    def _fixed(self, number: float | int, places: int) -> str:
        """``number`` (rounded already) as Django's ``numberformat.format`` writes it without
        grouping: its digits cut (not rounded) to ``places``, padded with zeros, the language's
        decimal mark; the same steps without the settings' lookups per value."""
        if isinstance(number, int) and not places:
            return str(number)
        text = str(number)
        if "e" in text.lower():  # far too big or small for a table: Django's own way
            return numberformat.format(number, self._separator, places, grouping=0)
        sign = ""
        if text[0] == "-":
            sign, text = "-", text[1:]
        whole, _dot, digits = text.partition(".")
        digits = digits[:places] + "0" * (places - len(digits[:places]))
        return sign + whole + (self._separator + digits if digits else "")

    def tiebreaks(self, values: list[float | None], codes: list[str]) -> list[str]:
        return tiebreak_texts(values, codes, decimal=self.decimal)

    def escaped(self, text: str) -> str:
        """``text`` HTML-escaped (as ``{{ text }}`` would print it), each distinct text once."""
        key = ("escaped", text)
        html = self._memo.get(key)
        if html is None:
            html = self._memo[key] = escape(str(text))
        return html

    def cell(self, text: str, css: str) -> str:
        """One ``<td class="css">`` cell, its text escaped (``cells``)."""
        return self.cells((text,), css)

    def cells(self, texts, css: str) -> SafeString:
        """The texts as one string of ``<td class="css">`` cells, each text escaped: a row of a long
        table is one template variable, not one template loop step per cell."""
        memo = self._cells
        parts = []
        for text in texts:
            key = (css, text)
            html = memo.get(key)
            if html is None:
                html = memo[key] = f'<td class="{css}">{escape(str(text))}</td>'
            parts.append(html)
        return SafeString("".join(parts))  # each text escaped above; css is a literal of the caller
