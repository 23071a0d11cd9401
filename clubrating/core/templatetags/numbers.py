"""Template filters of the number format policy (``clubrating.core.numbers``).

    {% load numbers %}
    {{ player.rating|rating }}        2107
    {{ row.change|signed }}           +47,43 / −0,84   ({{ x|signed:1 }} for one decimal)
    {{ row.points|points }}           3,5
    {{ row.expected|decimal:2 }}      2,38
"""

from django import template

from clubrating.core.numbers import format_decimal, format_rating, format_signed

register = template.Library()


@register.filter
def rating(value) -> str:
    return format_rating(value)


@register.filter
def signed(value, places=2) -> str:
    return format_signed(value, int(places))


@register.filter
def decimal(value, places=1) -> str:
    return format_decimal(value, int(places))


@register.filter
def points(value) -> str:
    """Tournament points with one decimal ("3,5", "4,0"), as in the standings."""
    return format_decimal(value, 1)
