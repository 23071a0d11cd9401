"""Every answer the OpenAPI schema documents for an endpoint is one the endpoint gives: for each
path and each documented status (200, 304, 403, 404, 422, 429) a request that gets it."""

import re

import pytest
from django.core.cache import cache

from clubrating.clubs.models import Club
from tests.api.test_api import tournament  # noqa: F401 - fixture
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

JSON_PATHS = {path for path in (
    "/api/v1/clubs", "/api/v1/members", "/api/v1/members/{member_id}", "/api/v1/members/{member_id}/ratings",
    "/api/v1/pools", "/api/v1/pools/{pool_id}/live", "/api/v1/lists/{list_id}", "/api/v1/tournaments",
    "/api/v1/tournaments/{tournament_id}", "/api/v1/tournaments/{tournament_id}/standings",
    "/api/v1/tournaments/{tournament_id}/pairings", "/api/v1/tournaments/{tournament_id}/rounds/{number}",
    "/api/v1/tournaments/{tournament_id}/crosstable", "/api/v1/tournaments/{tournament_id}/teams",
)}


@pytest.fixture
def schema(client, rated_club):
    return client.get("/api/v1/openapi.json").json()


def test_every_json_endpoint_documents_its_error_answers(schema):
    documented = {path: sorted(operations["get"]["responses"]) for path, operations in schema["paths"].items()
                  if path in JSON_PATHS}
    assert set(documented) == JSON_PATHS
    for path, codes in documented.items():
        without_parameters = path in ("/api/v1/clubs", "/api/v1/pools")
        assert codes == (["200", "304", "403", "429"] if without_parameters
                         else ["200", "304", "403", "404", "422", "429"]), path
        example = schema["paths"][path]["get"]["responses"]["429"]["content"]["application/json"]["example"]
        assert example == {"detail": "Zu viele Anfragen: bitte kurz warten und dann erneut versuchen."}


def test_the_age_filter_is_an_enum_of_its_values(schema):
    parameters = schema["paths"]["/api/v1/lists/{list_id}"]["get"]["parameters"]
    age = next(p for p in parameters if p["name"] == "age")
    assert age["schema"]["enum"] == ["", "U8", "U10", "U12", "U14", "U16", "U18", "S65"]


def test_every_documented_answer_is_given(client, schema, rated_club, tournament, settings):  # noqa: F811
    team_competition = TournamentFactory(name="Vereinsliga", kind="team")
    ids = {"member_id": rated_club["anna"].pk, "pool_id": rated_club["pool"].pk,
           "list_id": rated_club["list"].pk, "tournament_id": tournament.pk, "number": 1}

    def url(path, value=None):
        found = re.sub(r"{(\w+)}", lambda m: str(ids[m.group(1)]), path.removeprefix("/api/v1"))
        if path.endswith("/teams"):
            found = found.replace(f"/{tournament.pk}/", f"/{team_competition.pk}/")
        if value is not None:  # the first parameter of the path, else the page
            if "{" in path:
                return re.sub(r"^(/\w+/)[^/]+", lambda m: m.group(1) + value, found)
            return f"{found}?page={value}"
        return found

    def answer(path, code):
        full = "/api/v1" + url(path) if code in (200, 304, 403, 429) else None
        if code == 200:
            return client.get(full).status_code
        if code == 304:
            etag = client.get(full)["ETag"]
            return client.get(full, headers={"If-None-Match": etag}).status_code
        if code == 404:
            return client.get("/api/v1" + url(path, "999999")).status_code
        if code == 422:
            return client.get("/api/v1" + url(path, "x")).status_code
        if code == 403:
            Club.objects.filter(is_home=True).update(public_ratings=False, public_tournaments=False)
            try:
                return client.get(full).status_code
            finally:
                Club.objects.filter(is_home=True).update(public_ratings=True, public_tournaments=True)
        if code == 429:
            settings.API_RATE_LIMIT = "1/min"
            cache.clear()
            try:
                client.get(full)
                return client.get(full).status_code
            finally:
                settings.API_RATE_LIMIT = "1000/min"
                cache.clear()
        raise AssertionError(code)

    settings.API_RATE_LIMIT = "1000/min"
    cache.clear()
    for path in sorted(JSON_PATHS):
        for code in sorted(int(c) for c in schema["paths"][path]["get"]["responses"]):
            assert (path, code, answer(path, code)) == (path, code, code)
