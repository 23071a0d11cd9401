"""Tie-break values with the decimals their kind needs (``clubrating.tournaments.tiebreaks.decimals_for``),
so a column never mixes "123" and "103,50" and the page says what the exports say."""

from django import template

from clubrating.core.formatting import decimal_text
from clubrating.tournaments.tiebreaks import decimals_for

register = template.Library()


@register.filter
def tiebreak_cells(values, codes):
    """[(text), ...] for a row's values, aligned with the column codes; None stays a dash."""
    cells = []
    for value, code in zip(values, codes):
        if value is None:
            cells.append("–")
        else:
            # Localised decimal mark, no grouping: ratings read "1834" as on the other tournament pages.
            cells.append(decimal_text(value, decimals_for(str(code))))
    return cells
