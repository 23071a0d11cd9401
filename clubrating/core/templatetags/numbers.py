"""Template filters for ratings and rating changes (see ``clubrating.core.formatting``)."""

from __future__ import annotations

from django import template

from clubrating.core.formatting import change_text, rating_text

register = template.Library()


@register.filter
def rating(value, empty: str = "—") -> str:
    return rating_text(value, empty)


@register.filter
def rating_change(value, empty: str = "") -> str:
    return change_text(value, empty)
