"""The tournament's tab bar (``tournaments/_tabs.html``) drawn once per distinct state.

Every page of a tournament starts with it: its name and dates, a tab per page, the director's
menu and a button per round, two dozen addresses worked out by the URL resolver. What it shows
is the same for every spectator of the tournament until the tournament itself, its rounds or
the reader's language change, so each distinct combination is drawn once per process and then
copied; the key holds everything the template reads.
"""

from django import template
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

_DRAWN: dict[tuple, str] = {}
_MOST = 500  # distinct bars kept (a club's running tournaments × tabs × languages): then drawn anew


def _key(context) -> tuple:
    """Everything ``_tabs.html`` (with ``_tab_items.html`` and ``_official_tab_items.html``) reads."""
    tournament = context["tournament"]
    division = context.get("league_division")
    current = context.get("round")
    return (
        get_script_prefix(), get_language(), tournament.pk, tournament.name, tournament.kind,
        tournament.category, tournament.start_date, tournament.end_date, tournament.place,
        context.get("tab"), bool(context.get("official")), bool(context.get("is_round_robin")),
        tuple(context.get("round_numbers") or ()), getattr(current, "number", None),
        (division.pk, division.season.name) if division else None,
    )


@register.simple_tag(takes_context=True)
def tournament_tabs(context):
    """``{% include "tournaments/_tabs.html" %}``, drawn once per state (``_key``)."""
    key = _key(context)
    html = _DRAWN.get(key)
    if html is None:
        if len(_DRAWN) >= _MOST:
            _DRAWN.clear()
        html = _DRAWN[key] = get_template("tournaments/_tabs.html").render(context.flatten())
    return mark_safe(html)  # drawn by the template, which escapes what it prints
