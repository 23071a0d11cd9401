"""Template filters of the number format (see ``clubrating.core.formatting``): the one set every
page and print layout loads.

    {% load numbers %}
    {{ player.rating|rating }}        2107 ("—" when there is none; ``|rating:""`` for blank)
    {{ member.fide_id|plain }}        1600238 (an identifier: never grouped)
    {{ row.change|rating_change }}    +12 / −3 (a list's change, as rounded)
    {{ game.change|game_change }}     +1,7 / −0,4 (a change not yet rounded: one game's, a tournament's)
    {{ row.value|signed }}            +0,85 / −0,84 / ±0,00   ({{ x|signed:1 }} one decimal, ``:0`` whole)
    {{ row.points|points }}           3,5
    {{ row.expected|decimal:2 }}      2,38
    {% performance line.performance line.opponents|length %}   2273 (3): Rp and its rated games
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from clubrating.core.formatting import (
    change_text,
    decimal_text,
    game_change_text,
    id_text,
    points_text,
    rating_text,
)
from clubrating.core.formatting import signed as signed_text

register = template.Library()


@register.filter
def rating(value, empty: str = "—") -> str:
    return rating_text(value, empty)


@register.filter
def plain(value, empty: str = "") -> str:
    return id_text(value, empty)


@register.filter
def rating_change(value, empty: str = "") -> str:
    return change_text(value, empty)


@register.filter
def game_change(value, empty: str = "") -> str:
    return game_change_text(value, empty)


@register.filter
def signed(value, places=2) -> str:
    """Two decimals unless told (W − We and the like)."""
    return signed_text(None if value == "" else value, int(places))


@register.filter
def decimal(value, places=1) -> str:
    return decimal_text(value, int(places))


@register.filter
def points(value) -> str:
    return points_text(value)


@register.simple_tag
def change_heading():
    """``{% change_heading %}``: a rating-change column's heading (``core.columns.change_heading``)."""
    from clubrating.core.columns import _change_heading

    return _change_heading()


@register.simple_tag
def performance(value, games, empty: str = ""):
    """An Rp with the number of rated games it rests on, ``2273 (3)``: a performance on few games
    says little, so it is never shown without them. ``empty`` when there is none."""
    if value is None or value == "":
        return empty
    return format_html(
        '<span class="rp">{}</span> <span class="small text-muted rp-games" title="{}">({})</span>',
        rating_text(value), gettext("rated games it rests on"), games)
