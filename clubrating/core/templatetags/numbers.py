"""Template filters of the number format (see ``clubrating.core.formatting``).

    {% load numbers %}
    {{ player.rating|rating }}        2107 ("—" when there is none; ``|rating:""`` for blank)
    {{ row.change|rating_change }}    +12 / −0,84
    {{ row.change|signed }}           +47,43 / −0,84 / ±0,00   ({{ x|signed:1 }} for one decimal)
    {{ row.points|points }}           3,5
    {{ row.expected|decimal:2 }}      2,38
"""

from __future__ import annotations

from django import template

from clubrating.core.formatting import change_text, decimal_text, points_text, rating_text
from clubrating.core.formatting import signed as signed_text

register = template.Library()


@register.filter
def rating(value, empty: str = "—") -> str:
    return rating_text(value, empty)


@register.filter
def rating_change(value, empty: str = "") -> str:
    return change_text(value, empty)


@register.filter
def signed(value, places=2) -> str:
    """Two decimals by default here (evaluation tables); ``{% load formatting %}`` has whole numbers."""
    return signed_text(None if value == "" else value, int(places))


@register.filter
def decimal(value, places=1) -> str:
    return decimal_text(value, int(places))


@register.filter
def points(value) -> str:
    return points_text(value)
