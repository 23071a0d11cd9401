"""Responses of the API: JSON with the validators and cache lifetimes the pages have, and its
refusals as JSON with a translated message."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from ninja.errors import HttpError
from pydantic import BaseModel

from clubrating.accounts.permissions import can_view_ratings, can_view_tournaments

JSON = "application/json; charset=utf-8"


def body(model: BaseModel | list[BaseModel]) -> bytes:
    """The JSON of ``model`` (or of a list of them)."""
    if isinstance(model, list):
        return b"[" + b",".join(body(item) for item in model) + b"]"
    return model.model_dump_json().encode()


def json_response(request: HttpRequest, model: BaseModel | list[BaseModel]) -> HttpResponse:
    """``model`` as JSON, revalidated on every use (as the pages of running tournaments and the
    live list are): its ETag is the body's hash, so an unchanged answer costs the client a 304."""
    content = body(model)
    etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag) or HttpResponse(content, content_type=JSON)
    response.headers["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Cookie"])
    return response


def conditional_html(request: HttpRequest, html: str, *, status: int = 200) -> HttpResponse:
    """An embed's HTML, revalidated on every use like ``json_response``."""
    content = html.encode()
    etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
    response = (get_conditional_response(request, etag=etag) if status == 200 else None) or HttpResponse(
        content, content_type="text/html; charset=utf-8", status=status)
    response.headers["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Cookie"])
    return response


def refuse(message: str, status: int = 403):
    raise HttpError(status, message)


def parameters_message(names) -> str:
    """The answer to parameters that are not what the endpoint takes: each named, in order."""
    return _("Invalid parameters: %(names)s.") % {"names": ", ".join(sorted(set(names)))}


def refuse_parameters(names) -> None:
    refuse(parameters_message(names), 422)


def require_ratings(request: HttpRequest) -> None:
    """The rating lists, members and pools are served where their pages are public (or to a
    logged-in user, as the pages are)."""
    if not can_view_ratings(request.user):
        refuse(_("The rating lists of this site are not public."))


def require_tournaments(request: HttpRequest) -> None:
    if not can_view_tournaments(request.user):
        refuse(_("The tournaments of this site are not public."))


# The answers other than 200 the endpoints give, for the OpenAPI schema (each endpoint names its
# own: ``documented(304, 403, …)``); the example is the German text a client gets by default.
_ERROR = {"type": "object", "properties": {"detail": {"type": "string"}}, "required": ["detail"]}
_ANSWERS = {
    304: ("Not modified: the copy the client has (If-None-Match; for a published list also "
          "If-Modified-Since) is still the answer. No body.", None),
    403: ("Not public: the site's rating lists or tournaments are open to logged-in users only, or the "
          "member's profile is restricted.", "Die Wertungslisten dieser Website sind nicht öffentlich."),
    404: ("No such object, or no such page of the list.", "Nicht gefunden."),
    422: ("A parameter this endpoint does not take, or a value it does not accept, named.",
          "Ungültige Parameter: age."),
    429: ("Too many requests from this address (CLUBRATING_API_RATE_LIMIT); Retry-After says when to "
          "ask again.", "Zu viele Anfragen: bitte kurz warten und dann erneut versuchen."),
}


def documented(*codes: int) -> dict:
    """``openapi_extra`` of an endpoint: its answers ``codes`` with what they mean and an example."""
    responses = {}
    for code in codes:
        description, example = _ANSWERS[code]
        responses[code] = {"description": description} if example is None else {
            "description": description,
            "content": {"application/json": {"schema": _ERROR, "example": {"detail": example}}},
        }
    return {"responses": responses}
