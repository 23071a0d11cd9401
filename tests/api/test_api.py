"""The public read API: every endpoint against the page that shows the same data, its schema,
its permissions, its validators and its rate limit."""

import datetime
import json
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import ByeKind, Result
from tests.factories import (
    ByeFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)
from tests.ratings.views.test_lists import table_rows

pytestmark = pytest.mark.django_db


def get(client, url, **headers):
    response = client.get(url, headers=headers)
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response, json.loads(response.content) if response.status_code != 304 else None


def row_of(rows, name):
    return next(row for row in rows if name in row[1])


# --- rating lists -----------------------------------------------------------------------------------


def test_live_list_has_the_pages_ranks_ratings_and_changes(english, rated_club):
    pool = rated_club["pool"]
    page_rows = table_rows(english.get(f"/ratings/pools/{pool.pk}/live/"))
    _response, data = get(english, f"/api/v1/pools/{pool.pk}/live")
    assert [
        (row["rank"], row["name"], row["rating"], row["change"], row["games"]) for row in data["results"]
    ] == [
        (1, "Huber, Bernd", 1977, None, 51),
        (2, "Berger, Anna", 1843, 8, 12),
        (3, "Moser, Clara", 1691, -9, 21),
        (4, "Alt, Dora", 1500, None, 30),
    ]
    anna = row_of(page_rows, "Berger, Anna")
    # Rank, name, title, club, rating, change, games (a visitor gets no sex or birth year column).
    assert (anna[0], anna[4], anna[5], anna[6]) == ("2", "1843", "+8", "12")
    assert data | {"results": []} == {
        "count": 4,
        "page": 1,
        "pages": 1,
        "per_page": 100,
        "pool_id": pool.pk,
        "list_id": None,
        "live": True,
        "title": "Live rating list: Standard",
        "valid_from": None,
        "withdrawn": False,
        "results": [],
    }
    assert data["results"][1] == {
        "rank": 2,
        "member_id": rated_club["anna"].pk,
        "name": "Berger, Anna",
        "title": None,
        "club": "Schachklub Donaustadt",
        "birth_year": None,
        "rating": 1843,
        "change": 8,
        "games": 12,
        "period_games": 1,
        "markers": "",
        "class_code": "A",
        "provisional": True,
    }


def test_live_list_filtered_by_club_and_sorted_as_the_page(english, rated_club):
    pool = rated_club["pool"]
    query = "?club=Schachklub+Donaustadt&sort=name"
    page_names = [row[1] for row in table_rows(english.get(f"/ratings/pools/{pool.pk}/live/{query}"))]
    _response, data = get(english, f"/api/v1/pools/{pool.pk}/live{query}")
    assert (
        [row["name"] for row in data["results"]]
        == page_names
        == ["Alt, Dora", "Berger, Anna", "Huber, Bernd"]
    )
    # Ranks stay those of the whole list, as on the page.
    assert [row["rank"] for row in data["results"]] == [4, 2, 1]


def test_published_list_has_the_pages_values(english, rated_club):
    plist = rated_club["list"]
    page_rows = table_rows(english.get(f"/ratings/lists/{plist.pk}/"))
    _response, data = get(english, f"/api/v1/lists/{plist.pk}")
    assert [(row["rank"], row["name"], row["rating"], row["change"]) for row in data["results"]] == [
        (1, "Huber, Bernd", 1977, -3),
        (2, "Berger, Anna", 1835, 5),
        (3, "Moser, Clara", 1700, 0),
        (4, "Alt, Dora", 1500, 0),
    ]
    assert [(row[4], row[5]) for row in page_rows] == [
        ("1977", "\u22123"),
        ("1835", "+5"),
        ("1700", "±0"),
        ("1500", "±0"),
    ]
    assert (data["list_id"], data["valid_from"], data["live"]) == (plist.pk, "2026-07-01", False)


def test_pages_of_a_list(client, rated_club):
    pool = rated_club["pool"]
    response, data = get(client, f"/api/v1/pools/{pool.pk}/live?page=2")
    assert response.status_code == 404
    assert data == {"detail": "Diese Seite der Liste gibt es nicht."}


def test_pools_as_the_lists_overview(client, rated_club):
    pool, plist, start = rated_club["pool"], rated_club["list"], rated_club["start_list"]
    _response, data = get(client, "/api/v1/pools")
    page = client.get("/ratings/").content.decode()
    listed = re.findall(r'href="/ratings/lists/(\d+)/"', page)
    assert listed == [str(entry["id"]) for entry in data[0]["lists"]]
    assert [
        (p["id"], p["name"], p["category"], p["rules"], p["open_period"], p["list_in_force"]) for p in data
    ] == [
        (
            pool.pk,
            "Standard",
            "standard",
            "oesb-classic",
            {"start": "2026-07-01", "end": "2026-12-31"},
            plist.pk,
        )
    ]
    assert [
        (entry["id"], entry["kind"], entry["valid_from"], entry["in_force"], entry["withdrawn"])
        for entry in data[0]["lists"]
    ] == [(plist.pk, "period", "2026-07-01", True, False), (start.pk, "start", "2026-01-01", False, False)]


# --- clubs and members --------------------------------------------------------------------------------


def test_clubs(client, rated_club, home_club):
    _response, data = get(client, "/api/v1/clubs")
    # In the order of the list pages' club filter (by name, as the database sorts).
    assert data == [
        {"id": rated_club["other_club"].pk, "name": "SV Gäste", "short_name": "", "city": ""},
        {"id": home_club.pk, "name": "Schachklub Donaustadt", "short_name": "SK Donaustadt", "city": ""},
    ]


def test_members_as_the_member_list(english, rated_club, home_club):
    page = english.get("/members/").content.decode()
    assert ">2010<" in page  # Bernd's FIDE rating
    _response, data = get(english, f"/api/v1/members?club={home_club.pk}")
    assert data["count"] == 3
    assert data["results"][2] == {
        "id": rated_club["bernd"].pk,
        "name": "Huber, Bernd",
        "club": "Schachklub Donaustadt",
        "title": None,
        "fide_rating": 2010,
        "birth_year": None,
        "url": f"/members/{rated_club['bernd'].pk}/",
    }
    _response, data = get(english, "/api/v1/members?q=moser")
    assert [row["name"] for row in data["results"]] == ["Moser, Clara"]


def test_member_ratings_as_the_member_page(english, rated_club):
    anna = rated_club["anna"]
    page = english.get(f"/members/{anna.pk}/").content.decode()
    ratings_row = table_rows_of(page, "ratings")[0]
    assert ratings_row[1:5] == ["1835", "11", "1843 provisional", "+8"]
    _response, data = get(english, f"/api/v1/members/{anna.pk}/ratings")
    assert data["ratings"] == [
        {
            "pool_id": rated_club["pool"].pk,
            "pool": "Standard",
            "rules": "oesb-classic",
            "rating": 1835,
            "games": 11,
            "live_rating": 1843,
            "live_change": 8,
            "live_games": 1,
            "pending_games": 0,
            "provisional": True,
        }
    ]
    assert [(h["valid_from"], h["rating"], h["change"], h["rank"]) for h in data["history"]] == [
        ("2026-01-01", 1830, None, 2),
        ("2026-07-01", 1835, 5, 2),
    ]
    assert [
        (p["tournament"], p["games"], p["points"], p["average_opponent"], p["performance"], p["change"])
        for p in data["performances"]
    ] == [("Frühjahrsturnier 2026", 1, 0.5, 1980, 1980, 4.9), ("Herbstturnier 2026", 1, 1.0, 1700, 2500, 7.8)]
    performances = table_rows_of(page, "performances")
    # The page's Rp with the rated games it rests on (the API's "games").
    assert performances[0][2:] == ["0.5", "1980", "1980 (1)", "+4.9"]
    assert performances[1][2:] == ["1.0", "1700", "2500 (1)", "+7.8"]


def table_rows_of(html, css_class):
    """The cells' texts of the first table with ``css_class`` (id or class), tags removed."""
    start = re.search(rf'<table[^>]*(?:id|class)="[^"]*\b{css_class}\b[^"]*"', html).start()
    body = html[html.index("<tbody", start) : html.index("</tbody>", start)]
    return [
        [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_member_profile(client, rated_club, home_club):
    bernd = rated_club["bernd"]
    _response, data = get(client, f"/api/v1/members/{bernd.pk}")
    assert data == {
        "id": bernd.pk,
        "name": "Huber, Bernd",
        "first_name": "Bernd",
        "last_name": "Huber",
        "title": "",
        "club": {
            "id": home_club.pk,
            "name": "Schachklub Donaustadt",
            "short_name": "SK Donaustadt",
            "city": "",
        },
        "federation": "AUT",
        "fide_id": bernd.fide_id,
        "fide_rating": 2010,
        "national_id": bernd.national_id,
        "birth_year": None,
        "url": f"/members/{bernd.pk}/",
    }
    home_club.public_birth_years = True
    home_club.save()
    assert get(client, f"/api/v1/members/{bernd.pk}")[1]["birth_year"] == 1955


# --- permissions ---------------------------------------------------------------------------------------


RATINGS_URLS = [
    "/api/v1/clubs",
    "/api/v1/members",
    "/api/v1/pools",
    "/api/v1/pools/{pool}/live",
    "/api/v1/lists/{list}",
    "/api/v1/members/{anna}",
    "/api/v1/members/{anna}/ratings",
]


def _urls(urls, rated_club):
    return [
        url.format(
            pool=rated_club["pool"].pk,
            list=rated_club["list"].pk,
            anna=rated_club["anna"].pk,
            tournament=rated_club["autumn"].pk,
        )
        for url in urls
    ]


def test_private_rating_lists_are_not_served_to_visitors(client, rated_club, home_club, plain_user):
    home_club.public_ratings = False
    home_club.save()
    for url in _urls(RATINGS_URLS, rated_club):
        response, data = get(client, url)
        assert (url, response.status_code, data) == (
            url,
            403,
            {"detail": "Die Wertungslisten dieser Website sind nicht öffentlich."},
        )
    client.force_login(plain_user)
    for url in _urls(RATINGS_URLS[:5], rated_club):
        assert (url, client.get(url).status_code) == (url, 200)
    # Another member's page stays closed to him, as the member page is.
    for url in _urls(RATINGS_URLS[5:], rated_club):
        assert (url, client.get(url).status_code) == (url, 403)
    assert client.get(f"/members/{rated_club['anna'].pk}/").status_code == 403


TOURNAMENT_URLS = [
    "/api/v1/tournaments",
    "/api/v1/tournaments/{tournament}",
    "/api/v1/tournaments/{tournament}/standings",
    "/api/v1/tournaments/{tournament}/pairings",
    "/api/v1/tournaments/{tournament}/rounds/1",
    "/api/v1/tournaments/{tournament}/crosstable",
]


def test_private_tournaments_are_not_served_to_visitors(client, rated_club, home_club, plain_user):
    home_club.public_tournaments = False
    home_club.save()
    for url in _urls(TOURNAMENT_URLS, rated_club):
        response, data = get(client, url)
        assert (url, response.status_code, data) == (
            url,
            403,
            {"detail": "Die Turniere dieser Website sind nicht öffentlich."},
        )
    assert client.get("/api/v1/pools").status_code == 200  # the lists stay public
    client.force_login(plain_user)
    for url in _urls(TOURNAMENT_URLS, rated_club):
        assert (url, client.get(url).status_code) == (url, 200)


def test_a_restricted_profile_shows_the_name_and_ratings_only(client, rated_club, official):
    clara = rated_club["clara"]
    Member.objects.filter(pk=clara.pk).update(profile_restricted=True, fide_rating=1750)
    response, data = get(client, f"/api/v1/members/{clara.pk}")
    assert (response.status_code, data) == (
        403,
        {"detail": "Das Profil dieses Mitglieds ist nicht öffentlich."},
    )
    assert client.get(f"/api/v1/members/{clara.pk}/ratings").status_code == 403
    assert client.get(f"/members/{clara.pk}/").status_code == 302  # the page refuses too (login)
    _response, data = get(client, "/api/v1/members?q=moser")
    assert data["results"] == [
        {
            "id": clara.pk,
            "name": "Moser, Clara",
            "club": None,
            "title": None,
            "fide_rating": 1750,
            "birth_year": None,
            "url": None,
        }
    ]
    _response, data = get(client, f"/api/v1/pools/{rated_club['pool'].pk}/live?name=moser")
    assert (data["results"][0]["club"], data["results"][0]["rating"]) == (None, 1691)
    client.force_login(official)
    assert get(client, f"/api/v1/members/{clara.pk}")[1]["club"]["name"] == "SV Gäste"
    assert (
        get(client, f"/api/v1/pools/{rated_club['pool'].pk}/live?name=moser")[1]["results"][0]["club"]
        == "SV Gäste"
    )


def test_a_minor_without_consent_is_restricted(client, rated_club):
    minor = MemberFactory(first_name="Kim", last_name="Jung", birth_year=datetime.date.today().year - 12)
    assert client.get(f"/api/v1/members/{minor.pk}").status_code == 403
    assert get(client, "/api/v1/members?q=jung")[1]["results"][0]["url"] is None


# --- validators and cache lifetimes --------------------------------------------------------------------


def test_a_published_list_is_revalidated(client, rated_club):
    url = f"/api/v1/lists/{rated_club['list'].pk}"
    response, _data = get(client, url)
    assert response["Cache-Control"] == "private, no-cache"
    assert response["Last-Modified"]
    again = client.get(url, headers={"If-None-Match": response["ETag"]})
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", response["ETag"])
    # Another page of the list is another answer.
    assert client.get(url + "?sort=name", headers={"If-None-Match": response["ETag"]}).status_code == 200


@pytest.mark.db_specific
def test_the_live_list_is_revalidated_and_follows_a_result(client, rated_club, django_assert_num_queries):
    url = f"/api/v1/pools/{rated_club['pool'].pk}/live"
    response, data = get(client, url)
    assert response["Cache-Control"] == "private, no-cache"
    assert client.get(url, headers={"If-None-Match": response["ETag"]}).status_code == 304
    # Another reader of the same list gets the kept answer: the list's version is read, not its rows.
    # Own club, pool and period, clubs offered, the two data versions (one statement on PostgreSQL).
    with django_assert_num_queries(4 if connection.vendor == "postgresql" else 5):
        assert Client().get(url).content == response.content
    from ratings.services import game_record_result

    game = GameFactory(
        round=RoundFactory(tournament=rated_club["autumn"], number=2),
        board=1,
        white=rated_club["bernd"],
        black=rated_club["dora"],
        result=Result.NOT_PLAYED,
    )
    game_record_result(game=game, result=Result.WHITE_WINS)
    changed = client.get(url, headers={"If-None-Match": response["ETag"]})
    assert changed.status_code == 200
    assert [row["rating"] for row in json.loads(changed.content)["results"]] != [
        row["rating"] for row in data["results"]]


def test_other_answers_carry_an_etag_of_their_content(client, rated_club):
    url = f"/api/v1/members/{rated_club['bernd'].pk}"
    response, _data = get(client, url)
    assert response["Cache-Control"] == "private, no-cache"
    assert client.get(url, headers={"If-None-Match": response["ETag"]}).status_code == 304
    Member.objects.filter(pk=rated_club["bernd"].pk).update(fide_rating=2020)
    assert client.get(url, headers={"If-None-Match": response["ETag"]}).status_code == 200


# --- rate limit -------------------------------------------------------------------------------------


def test_too_many_requests_from_one_address(settings, rated_club):
    settings.API_RATE_LIMIT = "3/min"
    visitor = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(3):
        assert visitor.get("/api/v1/clubs").status_code == 200
    response = visitor.get("/api/v1/clubs", headers={"X-Forwarded-For": "203.0.113.9"})
    assert response.status_code == 429
    assert json.loads(response.content) == {
        "detail": "Zu viele Anfragen: bitte kurz warten und dann erneut versuchen."
    }
    assert 1 <= int(response["Retry-After"]) <= 60
    assert Client(REMOTE_ADDR="198.51.100.8").get("/api/v1/clubs").status_code == 200
    cache.clear()


def test_behind_a_trusted_proxy_each_visitor_counts_alone(settings, rated_club):
    settings.API_RATE_LIMIT = "2/min"
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    proxy = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(2):
        assert proxy.get("/api/v1/clubs", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 200
    assert proxy.get("/api/v1/clubs", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 429
    # The proxy appends the address it saw; what the client sent before it counts for nothing.
    assert proxy.get("/api/v1/clubs", headers={"X-Forwarded-For": "1.2.3.4, 198.51.100.7"}).status_code == 429
    assert proxy.get("/api/v1/clubs", headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 200


# --- schema --------------------------------------------------------------------------------------------


API_PATHS = {
    "/api/v1/clubs",
    "/api/v1/members",
    "/api/v1/members/{member_id}",
    "/api/v1/members/{member_id}/ratings",
    "/api/v1/pools",
    "/api/v1/pools/{pool_id}/live",
    "/api/v1/lists/{list_id}",
    "/api/v1/tournaments",
    "/api/v1/tournaments/{tournament_id}",
    "/api/v1/tournaments/{tournament_id}/standings",
    "/api/v1/tournaments/{tournament_id}/pairings",
    "/api/v1/tournaments/{tournament_id}/rounds/{number}",
    "/api/v1/tournaments/{tournament_id}/crosstable",
    "/api/v1/tournaments/{tournament_id}/teams",
    "/api/v1/tournaments/{tournament_id}/matches",
    "/api/v1/clubs/{club_id}/top.html",
    "/api/v1/tournaments/{tournament_id}/standings.html",
}


def test_openapi_schema_lists_every_path_read_only(client, rated_club):
    response, schema = get(client, "/api/v1/openapi.json")
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == API_PATHS
    assert {method for path in schema["paths"].values() for method in path} == {"get"}
    for path, operations in schema["paths"].items():
        for name in re.findall(r"{(\w+)}", path):
            assert name in {p["name"] for p in operations["get"]["parameters"]}, path
    components = schema["components"]["schemas"]
    assert set(components["ListRow"]["properties"]) == {
        "rank",
        "member_id",
        "name",
        "title",
        "club",
        "birth_year",
        "rating",
        "change",
        "games",
        "period_games",
        "markers",
        "class_code",
        "provisional",
    }


def test_every_path_of_the_schema_answers(client, rated_club, tournament):
    ids = {
        "member_id": rated_club["anna"].pk,
        "pool_id": rated_club["pool"].pk,
        "list_id": rated_club["list"].pk,
        "tournament_id": tournament.pk,
        "number": 1,
        "club_id": rated_club["anna"].club_id,
    }
    team_competition = TournamentFactory(name="Vereinsliga", kind="team")
    for path in API_PATHS:
        url = re.sub(r"{(\w+)}", lambda m: str(ids[m.group(1)]), path)
        if path.endswith(("/teams", "/matches")):  # a team competition's table and matches
            url = url.replace(f"/{tournament.pk}/", f"/{team_competition.pk}/")
        assert (path, client.get(url).status_code) == (path, 200)


def test_documentation_page_loads_nothing_from_elsewhere(client):
    response = client.get("/api/v1/docs")
    html = response.content.decode()
    assert response.status_code == 200
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "/static/ninja/swagger-ui.css",
        "/static/ninja/favicon.png",
        "/static/ninja/swagger-ui-bundle.js",
        "/static/ninja/swagger-ui-init.js",
    ] or all(url.startswith("/static/") for url in re.findall(r'(?:src|href)="([^"]+)"', html))
    assert "<script>" not in html  # no inline script: the site's CSP allows none


def test_unknown_objects_are_a_json_404(client, rated_club):
    response, data = get(client, "/api/v1/members/999999")
    assert (response.status_code, data) == (404, {"detail": "Nicht gefunden."})


# --- tournaments ----------------------------------------------------------------------------------------


@pytest.fixture
def tournament(rated_club):
    """A Swiss of five: round 1 A–D 1-0, B–C ½-½, E a pairing-allocated bye; round 2 A–B 1-0 and C–E
    still running."""
    club = Club.objects.get(name="SV Gäste")
    t = TournamentFactory(
        name="Stadtmeisterschaft",
        start_date=datetime.date(2026, 10, 1),
        rounds_count=5,
        tiebreaks="BH/C1,BH,SB",
    )
    members = [
        MemberFactory(first_name=first, last_name="Spieler", club=club, fide_rating=fide)
        for first, fide in (("A", 2100), ("B", 2000), ("C", 1900), ("D", None), ("E", 1700))
    ]
    for rank, (member, rating) in enumerate(zip(members, (2050, 1950, 1850, 1750, 1650)), start=1):
        TournamentPlayerFactory(tournament=t, member=member, start_rank=rank, rating=rating)
    a, b, c, d, e = members
    r1, r2 = RoundFactory(tournament=t, number=1), RoundFactory(tournament=t, number=2)
    GameFactory(round=r1, board=1, white=a, black=d, result=Result.WHITE_WINS)
    GameFactory(round=r1, board=2, white=b, black=c, result=Result.DRAW)
    ByeFactory(round=r1, member=e, kind=ByeKind.PAIRING)
    GameFactory(round=r2, board=1, white=b, black=a, result=Result.BLACK_WINS)
    GameFactory(round=r2, board=2, white=c, black=e, result=Result.NOT_PLAYED)
    return t


def test_standings_as_the_page(english, tournament):
    page = table_rows_of(
        english.get(f"/tournaments/{tournament.pk}/standings/").content.decode(), "standings-table"
    )
    _response, data = get(english, f"/api/v1/tournaments/{tournament.pk}/standings")
    assert data["tiebreaks"] == ["BH/C1", "BH", "SB"]
    api_rows = [
        [
            str(row["rank"]),
            row["player"]["name"],
            str(row["player"]["rating"]),
            f"{row['points']:.1f}",
            *[
                f"{value:.1f}" if code != "SB" else f"{value:.2f}"
                for value, code in zip(row["tiebreaks"], data["tiebreaks"])
            ],
        ]
        for row in data["rows"]
    ]
    # The name's cell carries the club in small print below it (on a phone).
    assert [[cells[0], cells[2].removesuffix("SV Gäste"), cells[4], *cells[6:]] for cells in page] == api_rows
    assert data["rows"][0] == {
        "rank": 1,
        "player": {
            "start_rank": 1,
            "member_id": tournament.players.get(start_rank=1).member_id,
            "name": "Spieler, A",
            "title": None,
            "club": "SV Gäste",
            "rating": 2050,
            "fide_rating": 2100,
            "url": f"/members/{tournament.players.get(start_rank=1).member_id}/",
        },
        "points": 2.0,
        "tiebreaks": [0.5, 1.0, 1.0],
    }


def test_pairings_and_results_per_round(client, tournament):
    _response, data = get(client, f"/api/v1/tournaments/{tournament.pk}/rounds/2")
    assert [
        (
            b["board"],
            b["white"]["name"],
            b["white"]["points_before"],
            b["result"],
            b["black"]["name"],
            b["black"]["points_before"],
            b["black"]["rating"],
        )
        for b in data["boards"]
    ] == [
        (1, "Spieler, B", 0.5, "0-1", "Spieler, A", 1.0, 2050),
        (2, "Spieler, C", 0.5, "", "Spieler, E", 1.0, 1650),
    ]
    assert data["matches"] is None  # single players: no team matches
    _response, data = get(client, f"/api/v1/tournaments/{tournament.pk}/pairings")
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    assert [(b["board"], b["white"]["name"], b["black"], b["bye"]) for b in data["rounds"][0]["boards"]][
        2
    ] == (None, "Spieler, E", None, "pairing")
    page = table_rows_of(
        client.get(f"/tournaments/{tournament.pk}/round/2/").content.decode(), "table-pairings"
    )
    assert [row[2:8] for row in page] == [
        ["Spieler, B", "1950", "0,5", "0-1", "1,0", "Spieler, A"],
        ["Spieler, C", "1850", "0,5", "–", "1,0", "Spieler, E"],
    ]


def test_crosstable_as_the_page(client, tournament):
    _response, data = get(client, f"/api/v1/tournaments/{tournament.pk}/crosstable")
    assert data["rounds"] == [1, 2]
    rank = {line["player"]["name"]: line["rank"] for line in data["lines"]}
    first = data["lines"][0]
    assert (first["player"]["name"], first["points"], first["progress"]) == ("Spieler, A", 2.0, [1.0, 2.0])
    assert first["cells"] == [
        {"opponent_rank": rank["Spieler, D"], "colour": "w", "result": "1"},
        {"opponent_rank": rank["Spieler, B"], "colour": "b", "result": "1"},
    ]
    e = next(line for line in data["lines"] if line["player"]["name"] == "Spieler, E")
    assert e["cells"] == [
        {"opponent_rank": None, "colour": "", "result": "U"},
        {"opponent_rank": rank["Spieler, C"], "colour": "b", "result": ""},
    ]
    assert e["progress"] == [1.0, None]


def test_tournament_with_its_starting_list(client, tournament):
    _response, data = get(client, f"/api/v1/tournaments/{tournament.pk}")
    assert {
        k: data[k]
        for k in (
            "name",
            "kind",
            "start_date",
            "rounds",
            "rounds_paired",
            "rounds_planned",
            "player_count",
            "finished",
        )
    } == {
        "name": "Stadtmeisterschaft",
        "kind": "swiss",
        "start_date": "2026-10-01",
        "rounds": 5,
        "rounds_paired": 2,
        "rounds_planned": 5,
        "player_count": 5,
        "finished": False,
    }
    assert [(p["start_rank"], p["name"], p["rating"], p["fide_rating"]) for p in data["players"]] == [
        (1, "Spieler, A", 2050, 2100),
        (2, "Spieler, B", 1950, 2000),
        (3, "Spieler, C", 1850, 1900),
        (4, "Spieler, D", 1750, None),
        (5, "Spieler, E", 1650, 1700),
    ]
    _response, data = get(client, "/api/v1/tournaments")
    page = client.get("/tournaments/").content.decode()
    # The same tournaments; the API lists the latest first (the model's order, which the page's
    # counted query does not keep).
    assert sorted(re.findall(r'<a href="/tournaments/\d+/">([^<]+)</a>', page)) == sorted(
        t["name"] for t in data["results"])
    assert [t["name"] for t in data["results"]] == [
        "Stadtmeisterschaft",
        "Herbstturnier 2026",
        "Frühjahrsturnier 2026",
    ]


def test_bad_parameters_are_named(client, rated_club):
    response, data = get(client, f"/api/v1/pools/{rated_club['pool'].pk}/live?page=erste")
    assert (response.status_code, data) == (422, {"detail": "Ungültige Parameter: page."})
    response, data = get(client, "/api/v1/members?club=x&active=vielleicht")
    assert (response.status_code, data) == (422, {"detail": "Ungültige Parameter: active, club."})


def test_a_filter_the_list_page_does_not_offer_is_refused(client, rated_club):
    response, data = get(client, f"/api/v1/pools/{rated_club['pool'].pk}/live?club=SK+Unbekannt")
    assert (response.status_code, data) == (422, {"detail": "Ungültige Parameter: club."})


def test_a_sort_or_filter_the_list_page_does_not_offer_this_reader_is_named(client, rated_club, official):
    url = f"/api/v1/pools/{rated_club['pool'].pk}/live"
    for query, names in [
        ("?sort=rating_desc", "sort"),  # no such column
        ("?sort=name,club", "sort"),  # one column per sort, as the page's links
        ("?sort=-sex", "sort"),  # a visitor gets no sex column, so none to sort by either
        ("?sort=birth_year", "sort"),  # nor a birth year where the club does not publish them
        ("?sex=f", "sex"),
        ("?age=U12&sex=m", "age, sex"),
    ]:
        response, data = get(client, url + query)
        assert (query, response.status_code, data) == (
            query, 422, {"detail": f"Ungültige Parameter: {names}."})
    assert get(client, url + "?sort=-change&club=Schachklub+Donaustadt")[0].status_code == 200
    client.force_login(official)  # an official's page has them all
    for query in ("?sort=-sex", "?sort=birth_year", "?sex=f&age=S65"):
        assert (query, client.get(url + query).status_code) == (query, 200)


def test_keys_beyond_the_databases_integers_are_not_found(client, rated_club):
    huge = "99999999999999999999999"
    response, data = get(client, f"/api/v1/pools/{huge}/live")
    assert (response.status_code, data) == (404, {"detail": "Nicht gefunden."})
    assert client.get(f"/ratings/pools/{huge}/live/").status_code == 404  # the page, from the same source
    for club in (huge, "999999", "0"):
        response, data = get(client, f"/api/v1/members?club={club}")
        assert (club, response.status_code, data) == (club, 422, {"detail": "Ungültige Parameter: club."})


def test_a_search_too_long_or_with_a_control_character_is_named(client, rated_club):
    for q in ("ab " * 2000, "Moser\x00", "a" * 101):
        response = client.get("/api/v1/members", {"q": q})
        assert (response.status_code, json.loads(response.content)) == (
            422, {"detail": "Ungültige Parameter: q."})
    assert client.get("/api/v1/members", {"q": "a" * 100}).status_code == 200


# --- a restricted profile is found by its name only --------------------------------------------------


@pytest.fixture
def bernd_restricted(rated_club, home_club):
    """Bernd (of the home club, born 1955) restricts his profile; the club publishes birth years."""
    Member.objects.filter(pk=rated_club["bernd"].pk).update(profile_restricted=True, national_id="40123")
    home_club.public_birth_years = True
    home_club.save()
    return rated_club


def _names(client, url):
    response, data = get(client, url)
    assert response.status_code == 200, data
    return [(row["name"], row["club"]) for row in data["results"]]


def test_a_list_filtered_or_sorted_by_club_or_age_does_not_tell_a_restricted_profiles(
        client, bernd_restricted, official):
    live = f"/api/v1/pools/{bernd_restricted['pool'].pk}/live"
    published = f"/api/v1/lists/{bernd_restricted['list'].pk}"
    donaustadt = "?club=Schachklub+Donaustadt&sort=name"
    assert _names(client, live + donaustadt) == _names(client, published + donaustadt) == [
        ("Alt, Dora", "Schachklub Donaustadt"), ("Berger, Anna", "Schachklub Donaustadt")]
    assert _names(client, live + "?age=S65") == [("Alt, Dora", "Schachklub Donaustadt")]  # born 1960
    # Sorted by club, his blank club sorts as a blank: last, not among his club's members.
    assert _names(client, live + "?sort=club")[-1] == ("Huber, Bernd", None)
    assert _names(client, live + "?sort=-club")[-1] == ("Huber, Bernd", None)
    # Unfiltered, he is on the list with his name and rating, as before.
    assert ("Huber, Bernd", None) in _names(client, live)
    client.force_login(official)
    assert _names(client, live + donaustadt) == [
        ("Alt, Dora", "Schachklub Donaustadt"), ("Berger, Anna", "Schachklub Donaustadt"),
        ("Huber, Bernd", "Schachklub Donaustadt")]
    assert [name for name, _club in _names(client, live + "?age=S65")] == ["Huber, Bernd", "Alt, Dora"]


def test_the_member_search_finds_a_restricted_profile_by_name_only(client, bernd_restricted, home_club,
                                                                   official):
    # An adult without birth date or year is no restricted profile: found by his club as before.
    MemberFactory(first_name="Uwe", last_name="Ohnejahr", club=home_club, birth_year=None, birth_date=None)
    by_club = f"/api/v1/members?club={home_club.pk}"
    assert [name for name, _club in _names(client, by_club)] == ["Alt, Dora", "Berger, Anna", "Ohnejahr, Uwe"]
    assert [name for name, _club in _names(client, "/api/v1/members?q=Donaustadt")] == [
        "Alt, Dora", "Berger, Anna", "Ohnejahr, Uwe"]
    assert _names(client, "/api/v1/members?q=40123") == []  # his national ID
    assert _names(client, f"/api/v1/members?q={bernd_restricted['bernd'].fide_id}") == []
    assert _names(client, "/api/v1/members?q=huber+bernd") == [("Huber, Bernd", None)]
    client.force_login(official)
    assert [name for name, _club in _names(client, by_club)] == [
        "Alt, Dora", "Berger, Anna", "Huber, Bernd", "Ohnejahr, Uwe"]
    assert _names(client, "/api/v1/members?q=40123") == [("Huber, Bernd", "Schachklub Donaustadt")]


def test_a_team_competition_counts_its_teams_as_the_tournament_list(client, rated_club):
    from tests.factories import TeamFactory

    league = TournamentFactory(name="Landesliga", kind="team", start_date=datetime.date(2026, 9, 1))
    for name in ("SK A", "SK B", "SK C"):
        TeamFactory(tournament=league, name=name)
    _response, data = get(client, f"/api/v1/tournaments/{league.pk}")
    assert (data["player_count"], data["team_count"]) == (0, 3)
    listed = next(t for t in get(client, "/api/v1/tournaments")[1]["results"] if t["id"] == league.pk)
    assert (listed["player_count"], listed["team_count"]) == (0, 3)
    assert re.search(r"Landesliga</a></td>(?:\s*<td[^>]*>[^<]*</td>)*?\s*<td[^>]*>3 Mannschaften</td>",
                     client.get("/tournaments/").content.decode())
    results = get(client, "/api/v1/tournaments")[1]["results"]
    autumn = next(t for t in results if t["name"] == "Herbstturnier 2026")
    assert (autumn["player_count"], autumn["team_count"]) == (0, 0)


def test_a_performance_has_the_pending_games_and_their_points_as_the_member_page(english, rated_club):
    from ratings.services import game_record_result

    anna, autumn = rated_club["anna"], rated_club["autumn"]
    newcomer = MemberFactory(first_name="Nina", last_name="Neu", birth_year=1990)
    game = GameFactory(round=RoundFactory(tournament=autumn, number=2), board=1, white=newcomer, black=anna,
                       result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.DRAW)
    page = english.get(f"/members/{anna.pk}/").content.decode()
    autumn_row = next(row for row in table_rows_of(page, "performances") if row[0] == "Herbstturnier 2026")
    assert autumn_row[1:3] == ["1 (+1 pending)", "1.0 (+0.5)"]
    _response, data = get(english, f"/api/v1/members/{anna.pk}/ratings")
    performance = next(p for p in data["performances"] if p["tournament"] == "Herbstturnier 2026")
    assert {k: performance[k] for k in ("games", "points", "unrated_games", "unrated_points")} == {
        "games": 1, "points": 1.0, "unrated_games": 1, "unrated_points": 0.5}
