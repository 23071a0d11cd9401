"""The public read API, version 1: /api/v1/, its OpenAPI schema /api/v1/openapi.json and the
documentation page /api/v1/docs (Swagger UI, served from the site's own static files: no CDN).

django-ninja (README, "Libraries, and why"): the answers are typed pydantic models, from which the
schema is generated, and the site already runs pydantic.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import Throttled, ValidationError

from . import embeds_api, members_api, ratings_api, tournaments_api
from .responses import parameters_message
from .throttle import ClientAddressThrottle


class ClubRatingAPI(NinjaAPI):
    """The schema follows from the code alone: built once per process, not on every request."""

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        cache = self.__dict__.setdefault("_schemas", {})
        key = path_prefix if path_prefix is not None else self.get_root_path(path_params or {})
        if key not in cache:
            cache[key] = super().get_openapi_schema(path_prefix=key)
        return cache[key]


api = ClubRatingAPI(
    title="ClubRating API", version="1", urls_namespace="api-v1", docs_url="/docs",
    description="Read-only: clubs, members, rating pools and lists, tournaments. "
                "Open where the site's pages are public; rate-limited per client address.",
    throttle=[ClientAddressThrottle()],
)
api.add_router("", members_api.router)
api.add_router("", ratings_api.router)
api.add_router("", tournaments_api.router)
api.add_router("", embeds_api.router)


@api.exception_handler(Throttled)
def too_many_requests(request: HttpRequest, exc: Throttled):
    # Retry-After is added by django-ninja from the throttle's wait().
    message = _("Too many requests: please wait a moment and try again.")
    return api.create_response(request, {"detail": message}, status=429)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404):
    return api.create_response(request, {"detail": _("Not found.")}, status=404)


@api.exception_handler(ValidationError)
def bad_parameters(request: HttpRequest, exc: ValidationError):
    """A parameter that is not what the schema says (a page that is no number, …): named, changes
    nothing."""
    names = {str(error["loc"][-1]) for error in exc.errors if error.get("loc")}
    return api.create_response(request, {"detail": parameters_message(names)}, status=422)
