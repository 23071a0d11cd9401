"""The number texts of a long table, each distinct value formatted once.

A table of hundreds of players repeats few values (points in half steps, a handful of tie-break
values, the same opponents' ranks); formatting them in the view, once each, instead of through a
template filter per cell keeps a 300-player crosstable's page within its time. The texts are the
number filters' own: ``clubrating.core.formatting.NumberTexts`` writes both.
"""

from __future__ import annotations

from html import escape  # Django's escape without its check for lazy texts, which costs a long table

from django.utils.safestring import SafeString

from clubrating.core.formatting import number_texts

from ..templatetags.tiebreaks import tiebreak_texts


class Texts:
    """Formats for one request (one language): ``points``, ``decimal``, ``rating``, ``signed``,
    ``game_change``, ``tiebreaks``; ``escaped`` and ``cells`` give the HTML of a row's texts."""

    def __init__(self) -> None:
        self._memo: dict[tuple, str] = {}
        self._numbers = number_texts()
        self.rating = self._numbers.rating
        self._cells: dict[tuple[str, str], str] = {}
        self._escaped: dict[str, str] = {}

    def points(self, value: float | None) -> str:
        """``points_text``: one decimal."""
        return self.decimal(value, 1)

    def decimal(self, value: float | None, places: int) -> str:
        """``decimal_text``, once per distinct value."""
        key = ("decimal", value if value else repr(value), places)  # −0.0 is not 0.0 here
        text = self._memo.get(key)
        if text is None:
            text = self._memo[key] = self._numbers.decimal(value, places)
        return text

    def signed(self, value: float | None, places: int) -> str:
        """``formatting.signed``, once per distinct value."""
        key = ("signed", value if value else repr(value), places)
        text = self._memo.get(key)
        if text is None:
            text = self._memo[key] = self._numbers.signed(value, places)
        return text

    def game_change(self, value: float | None) -> str:
        """``formatting.game_change_text``, once per distinct value."""
        key = ("game_change", value if value else repr(value))
        text = self._memo.get(key)
        if text is None:
            text = self._memo[key] = self._numbers.game_change(value)
        return text

    def tiebreaks(self, values: list[float | None], codes: list[str]) -> list[str]:
        return tiebreak_texts(values, codes, decimal=self.decimal)

    def escaped(self, text: str) -> str:
        """``text`` HTML-escaped (as ``{{ text }}`` would print it), each distinct text once."""
        html = self._escaped.get(text)
        if html is None:
            html = self._escaped[text] = escape(str(text))
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
