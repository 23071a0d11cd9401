"""Tie-break values with the decimals their kind needs, so a column never mixes "123" and "103,50"."""

from django import template

from clubrating.core.formatting import decimal_text
from clubrating.tournaments.tiebreaks import UnknownTiebreak, split_code

register = template.Library()

# Counts and ratings are whole numbers; Sonneborn-Berger moves in quarter points; Buchholz,
# Koya and the like in half points.
WHOLE = {"DE", "WIN", "WON", "BPG", "BWG", "GE", "ARO", "TPR", "PTP", "APRO", "APPO", "REP", "RFP", "PS"}
QUARTERS = {"SB", "ESB", "SMP"}


def decimals_for(code: str) -> int:
    try:
        base, _modifier = split_code(code)
    except UnknownTiebreak:
        return 1
    if base in WHOLE:
        return 0
    if base in QUARTERS:
        return 2
    return 1


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
