"""The HTTP side every face of a rating list shares (the pages in ``ratings.views.lists`` and the
public API): what this reader may see (``ListPrivacy``), and the validators and cache lifetime of
a list's answer. Every answer is revalidated every time (``no-cache``): a published list's rows
never change, but reopening its period withdraws it and closing the period again replaces it, and
the mark saying so must reach a browser that kept the list (its ETag carries the list's state, its
``Last-Modified`` the moment that state last changed, ``ratings.lists.faces.published_source``). An
unchanged list costs the browser a 304. The live list's validators follow the pool's cache version.
"""

from __future__ import annotations

import hashlib

from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date

from clubrating.accounts.permissions import audience_for, birth_years_public
from clubrating.clubs.privacy import Audience
from ratings.lists.faces import ListPrivacy, ListSource

PER_PAGE = 100
TABLE_CACHE_SECONDS = 3600
# Change when the pages' markup or rows change, so that browsers and the server's cache fetch
# them again (6: a restricted profile is no longer found by a club or age filter).
ETAG_SCHEMA = "6"


def list_etag(request, source: ListSource, face: str, *, per_user: bool = True) -> str:
    """The validator of one face of a list for this query and language (and user: the page's
    navigation names the user)."""
    user = request.user
    parts = [ETAG_SCHEMA, face, source.version, translation.get_language() or "", request.GET.urlencode(),
             list_privacy(request).key, str(user.pk if per_user and user.is_authenticated else "")]
    return '"' + hashlib.sha256("|".join(parts).encode()).hexdigest()[:32] + '"'


def list_conditional(request, source: ListSource, face: str, build):
    """A 304 when the browser has this face of this list as it stands; otherwise ``build()``,
    with the validators, revalidated on every use."""
    etag = list_etag(request, source, face)
    last_modified = int(source.last_modified.timestamp()) if source.last_modified else None
    response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        response = build()
    response.headers["ETag"] = etag
    if source.last_modified is not None:
        response.headers["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, private=True, no_cache=True)
    return response


def list_privacy(request) -> ListPrivacy:
    """What this reader may see of a list (``ratings.lists.faces.ListPrivacy``), once per request."""
    privacy = getattr(request, "_list_privacy", None)
    if privacy is None:
        privacy = ListPrivacy(full=audience_for(request.user) == Audience.OFFICIAL,
                              birth_years=birth_years_public())
        request._list_privacy = privacy
    return privacy
