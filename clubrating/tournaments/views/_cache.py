"""The tournament pages' tables, cached per tournament and reader, with the pages' validators.

A 300-player Swiss' standings, crosstable or evaluation take a hundred milliseconds and more to
read and draw; during the tournament every spectator asks for them again and again. Their tables
are drawn once per version of what they show and kept in the cache (shared by the server's
processes): the tournament's own rows (``selectors.tournament_version``, which changes with any
save, import or admin edit of them), the members' names and clubs (``club_data_version``), for
the rating evaluation the ratings of the pools that rate the tournament (``pools_version``), and
the reader (his language and what he may see of each member: ``privacy.viewer_of``). The page
around the table (tabs, the reader's menu and form tokens) is drawn for every request. A browser
that has the page already gets a 304 (the ETag carries the same version and the reader).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.template.context import make_context
from django.template.loader import get_template, render_to_string
from django.template.loader_tags import BlockNode
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.safestring import SafeString, mark_safe

from clubrating.accounts.templatetags.privacy import viewer_of
from clubrating.clubs.selectors import club_data_version
from ratings.services.cache import pool_cache_version
from ratings.services.pools import tournament_pool_names

from .. import selectors

TABLE_CACHE_SECONDS = 24 * 3600  # a version is never reused: the time only bounds the cache's size
# Change when the tables' markup changes, so that cached tables and browsers' copies are redrawn.
SCHEMA = "3"


class PageVersion:
    """The version of one face of a tournament's page for this request (``parts``: what else the
    face shows, e.g. the ratings' version)."""

    def __init__(self, request, tournament, face: str, *parts, rows: str | None = None) -> None:
        """``rows``: the version of the rows the face shows, when more than the tournament's
        (a league division's: ``leagues.selectors.division_version``)."""
        viewer = viewer_of(request)
        user = request.user
        rows = rows if rows is not None else selectors.tournament_version(tournament=tournament)
        state = (SCHEMA, face, tournament.pk, rows,
                 club_data_version(), translation.get_language() or "", request.GET.urlencode(),
                 viewer.audience, viewer.user_id, viewer.birth_years_public, viewer.today,
                 user.pk if user.is_authenticated else None, *parts)
        self.value = hashlib.sha256(repr(state).encode()).hexdigest()[:32]
        self.etag = f'"{self.value}"'
        self.request = request
        self.face = face

    def not_modified(self):
        """A 304 when the browser has this very page already (and no message waits to be shown
        on it); None otherwise."""
        if len(messages.get_messages(self.request)):
            return None
        response = get_conditional_response(self.request, etag=self.etag)
        return self.validated(response) if response is not None else None

    def validated(self, response):
        """``response`` with the page's validator, to be revalidated every time."""
        response.headers["ETag"] = self.etag
        patch_cache_control(response, private=True, no_cache=True)
        return response

    def cached(self, part: str, build: Callable[[], dict]) -> dict:
        """``build()`` (a dict of texts and plain values), taken from the cache when this version
        of the page has been drawn before."""
        key = f"tournament:page:{part}:{self.value}"
        value = cache.get(key)
        if value is None:
            value = build()
            cache.set(key, value, TABLE_CACHE_SECONDS)
        return value

    def body(self, template: str, build: Callable[[], dict]) -> SafeString:
        """``template`` drawn with the context ``build()`` returns (called only when the cache
        has no copy of this version of it)."""
        def draw() -> dict:
            return {"html": render_to_string(template, build(), request=self.request)}

        drawn = self.cached(template, draw)
        return mark_safe(drawn["html"])  # drawn by the template above, escaped there

    def content(self, page: str, build: Callable[[], dict]) -> SafeString:
        """The ``content`` block of the page template ``page`` drawn with the context ``build()``
        returns, once per version; the page shows it in place of the block (``content_html`` in
        base.html), so the page's template stays whole and is drawn around it for each reader."""
        def draw() -> dict:
            template = get_template(page).template
            blocks = template.nodelist.get_nodes_by_type(BlockNode)
            block = next(node for node in blocks if node.name == "content")
            context = make_context(build(), self.request)
            with context.bind_template(template):
                return {"html": block.render(context)}

        return mark_safe(self.cached(f"content:{page}", draw)["html"])  # escaped by the template


def pools_version(tournament) -> tuple:
    """The cache versions of the pools that rate ``tournament`` (its rating evaluation, the
    ratings its pages show): a save in another pool's tournament leaves its pages cached."""
    return tuple((pk, pool_cache_version(pk)) for pk, _name in rating_pools(tournament))


def rating_pools(tournament) -> list[tuple[int, str]]:
    """(id, name) of the pools that rate ``tournament`` (``tournament_pool_names``), read once
    per instance: a page's tabs (the rating columns' heading) and its cache version ask."""
    memo = getattr(tournament, "_rating_pools", None)
    if memo is None:
        memo = tournament._rating_pools = tournament_pool_names(tournament)
    return memo
