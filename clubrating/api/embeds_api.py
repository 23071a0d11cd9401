"""The embeds as script-free HTML snippets: a club's server fetches one and puts it into its own
page (docs/using.md, "The public API and lists on a club's website")."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from .embeds import club_top_embed, standings_embed
from .responses import conditional_html

router = Router(tags=["embeds"])


HTML = {"responses": {200: {"description": "An HTML table, no script", "content": {"text/html": {}}}}}


@router.get("/clubs/{club_id}/top.html", summary="A club's top list as an HTML snippet", openapi_extra=HTML)
def club_top_snippet(request: HttpRequest, club_id: int, pool: int | None = None, limit: int = 10):
    embed = club_top_embed(request, club_id)
    return conditional_html(request, embed.html, status=403 if embed.refused else 200)


@router.get("/tournaments/{tournament_id}/standings.html", summary="Standings as an HTML snippet",
            openapi_extra=HTML)
def standings_snippet(request: HttpRequest, tournament_id: int):
    embed = standings_embed(request, tournament_id)
    return conditional_html(request, embed.html, status=403 if embed.refused else 200)
