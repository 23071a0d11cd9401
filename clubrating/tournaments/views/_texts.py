"""The number texts of a long table, each distinct value formatted once.

A table of hundreds of players repeats few values (points in half steps, a handful of tie-break
values, the same opponents' ranks); formatting them in the view, once each, instead of through a
template filter per cell keeps a 300-player crosstable's page within its time. The texts are the
number filters' own (``clubrating.core.formatting``, ``templatetags.tiebreaks``).
"""

from __future__ import annotations

from html import escape  # Django's escape without its check for lazy texts, which costs a long table

from django.utils.safestring import SafeString, mark_safe

from clubrating.core.formatting import decimal_text, game_change_text, points_text, rating_text, signed

from ..templatetags.tiebreaks import tiebreak_texts


class Texts:
    """Formats for one request (one language): ``points``, ``decimal``, ``rating``, ``tiebreaks``;
    ``escaped`` and ``cells`` give the HTML of a row's texts."""

    def __init__(self) -> None:
        self._memo: dict[tuple, str] = {}
        self._cells: dict[tuple[str, str], str] = {}

    def points(self, value: float | None) -> str:
        key = ("points", value)
        text = self._memo.get(key)
        if text is None:
            text = self._memo[key] = points_text(value)
        return text

    def decimal(self, value: float | None, places: int) -> str:
        key = ("decimal", value, places)
        text = self._memo.get(key)
        if text is None:
            text = self._memo[key] = decimal_text(value, places)
        return text

    @staticmethod
    def rating(value: float | None, empty: str = "—") -> str:
        return rating_text(value, empty)

    @staticmethod
    def signed(value: float | None, places: int) -> str:
        return signed(value, places)

    @staticmethod
    def game_change(value: float | None) -> str:
        return game_change_text(value)

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
        return mark_safe("".join(parts))  # each text escaped above; css is a literal of the caller
