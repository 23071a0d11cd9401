"""Tie-break values with the decimals their kind needs (``clubrating.tournaments.tiebreaks.decimals_for``),
so a column never mixes "123" and "103,50" and the page says what the exports say."""

from django import template

from clubrating.core.formatting import decimal_text
from clubrating.tournaments.tiebreaks import decimals_for

register = template.Library()


def tiebreak_texts(values, codes, *, decimal=decimal_text) -> list[str]:
    """[text, ...] for a row's values, aligned with the column codes; None stays a dash.
    ``decimal(value, places)`` formats a value (a page's memo of ``decimal_text``)."""
    cells = []
    for value, code in zip(values, codes):
        if value is None:
            cells.append("–")
        else:
            # Localised decimal mark, no grouping: ratings read "1834" as on the other tournament pages.
            cells.append(decimal(value, decimals_for(str(code))))
    return cells


@register.filter
def tiebreak_cells(values, codes):
    """The row's tie-break texts (``tiebreak_texts``)."""
    return tiebreak_texts(values, codes)
