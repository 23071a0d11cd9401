"""Lists and standings on a club's own website: a small page for an <iframe> (``club_top``,
``tournament_standings``) and the same table as a script-free HTML snippet from the API
(``clubrating.api.embeds_api``), which the club's server includes in its own page.

The site otherwise forbids framing (frame-ancestors 'none', X-Frame-Options: DENY); these pages
allow the sites listed in ``settings.EMBED_ALLOWED_SITES`` and no others.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from csp.constants import NONE
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import can_view_ratings, can_view_tournaments
from clubrating.accounts.templatetags.privacy import viewer_of
from clubrating.clubs.models import Club
from clubrating.clubs.privacy import Audience
from clubrating.tournaments import selectors
from clubrating.tournaments.models import GameCategory, Tournament
from clubrating.tournaments.views._standings import standings as page_standings
from ratings.models import RatingPool
from ratings.selectors import live_list, pools_with_list_in_force

from .responses import conditional_html

TOP = 10
TOP_MAX = 50
# A running tournament's embedded standings reload themselves (no script: a meta refresh).
REFRESH_SECONDS = 60


@dataclass
class Embed:
    html: str  # the table, also the API's snippet
    title: str
    refresh: bool = False
    refused: bool = False


def _main_pool(pool_id: str | None) -> RatingPool | None:
    """The pool asked for, else the one the start page shows: standard games first."""
    pools = list(pools_with_list_in_force(timezone.localdate()).order_by("name"))
    if pool_id:
        return next((p for p in pools if str(p.pk) == pool_id), None)
    return next((p for p in pools if p.category == GameCategory.STANDARD), pools[0] if pools else None)


def _limit(value: str | None) -> int:
    try:
        return min(max(int(value), 1), TOP_MAX) if value else TOP
    except ValueError:
        return TOP


def club_top_embed(request: HttpRequest, pk: int) -> Embed:
    """The club's members at the top of a pool's live list (``?pool=``, ``?limit=`` up to 50)."""
    club = get_object_or_404(Club, pk=pk)
    title = _("Live rating list: %(club)s") % {"club": club.name}
    if not can_view_ratings(request.user):
        return Embed(render_to_string("api/embed_refused.html", {
            "message": _("The rating lists of this site are not public.")}), title, refused=True)
    pool = _main_pool(request.GET.get("pool"))
    limit, private = _limit(request.GET.get("limit")), viewer_of(request).audience < Audience.OFFICIAL
    rows = live_list(pool, club_id=club.pk, limit=limit, private=private) if pool else []
    full_url = ""
    if pool is not None:
        full_url = request.build_absolute_uri(reverse("ratings:live", args=[pool.pk])) + "?" + urlencode(
            {"club": club.name})
    html = render_to_string("api/embed_club_top.html", {
        "club": club, "pool": pool, "rows": rows, "full_url": full_url, "title": title,
    })
    return Embed(html, title)


def standings_embed(request: HttpRequest, pk: int) -> Embed:
    """A tournament's standings: rank, name, club, points and the first two tie-breaks."""
    tournament = get_object_or_404(Tournament, pk=pk)
    title = tournament.name
    if not can_view_tournaments(request.user):
        return Embed(render_to_string("api/embed_refused.html", {
            "message": _("The tournaments of this site are not public.")}), title, refused=True)
    codes, rows, _error = page_standings(tournament)
    _version, running = selectors.pairings_version(tournament=tournament)
    viewer = viewer_of(request)
    html = render_to_string("api/embed_standings.html", {
        "tournament": tournament, "codes": codes[:2], "title": title, "running": running,
        "rows": [(row, viewer.shows(row.player.member, "club")) for row in rows],
        "full_url": request.build_absolute_uri(reverse("tournaments:standings", args=[tournament.pk])),
    })
    return Embed(html, title, refresh=running)


def _framable(response: HttpResponse) -> HttpResponse:
    """Allow the listed sites to frame this response (django-csp reads ``_csp_replace``; Django's
    clickjacking middleware leaves an exempt response alone). Without any listed site the embed is
    framable nowhere, as every other page."""
    sites = settings.EMBED_ALLOWED_SITES
    response._csp_replace = {"frame-ancestors": list(sites) if sites else [NONE]}
    if sites:
        response.xframe_options_exempt = True
    return response


def _page(request: HttpRequest, embed: Embed) -> HttpResponse:
    response = conditional_html(request, render_to_string("api/embed.html", {
        "embed": embed, "refresh_seconds": REFRESH_SECONDS}, request=request),
        status=403 if embed.refused else 200)
    return _framable(response)


def club_top(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, club_top_embed(request, pk))


def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, standings_embed(request, pk))
