"""Embeds for a club's website: the iframe pages' framing headers and the API's HTML snippets."""

import datetime

import pytest

from clubrating.tournaments.models import Result
from tests.factories import (
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = pytest.mark.django_db


def csp(response) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))


def test_club_top_list_in_an_iframe_page(client, rated_club, home_club, settings):
    settings.EMBED_ALLOWED_SITES = ["https://www.sk-donaustadt.at", "https://verein.example"]
    response = client.get(f"/embed/clubs/{home_club.pk}/top/")
    html = response.content.decode()
    assert response.status_code == 200
    assert csp(response)["frame-ancestors"] == "https://www.sk-donaustadt.at https://verein.example"
    assert "X-Frame-Options" not in response
    assert "<script" not in html
    assert "<title>Live-Wertungsliste: Schachklub Donaustadt</title>" in html
    # The club's members in the order of the live list, with its ratings and changes.
    assert [
        line.strip() for line in html.split("<tbody>")[1].split("</tbody>")[0].split("</tr>") if line.strip()
    ] == [
        '<tr><td class="num">1</td><td>Huber, Bernd</td><td class="num">1977</td><td class="num"></td>',
        '<tr><td class="num">2</td><td>Berger, Anna</td><td class="num">1843</td><td class="num">+8</td>',
        '<tr><td class="num">3</td><td>Alt, Dora</td><td class="num">1500</td><td class="num"></td>',
    ]
    assert (
        f'href="http://testserver/ratings/pools/{rated_club["pool"].pk}/live/?club=Schachklub+Donaustadt"'
        in html
    )


def test_without_listed_sites_no_site_may_frame_it(client, rated_club, home_club, settings):
    settings.EMBED_ALLOWED_SITES = []
    response = client.get(f"/embed/clubs/{home_club.pk}/top/")
    assert csp(response)["frame-ancestors"] == "'none'"
    assert response["X-Frame-Options"] == "DENY"


def test_other_pages_stay_unframable(client, rated_club, settings):
    settings.EMBED_ALLOWED_SITES = ["https://www.sk-donaustadt.at"]
    for url in ("/", f"/ratings/pools/{rated_club['pool'].pk}/live/", "/api/v1/docs"):
        response = client.get(url)
        assert (url, csp(response)["frame-ancestors"], response["X-Frame-Options"]) == (url, "'none'", "DENY")


def test_snippet_is_the_same_table_without_a_page(client, rated_club, home_club):
    snippet = client.get(f"/api/v1/clubs/{home_club.pk}/top.html?limit=2")
    html = snippet.content.decode()
    assert snippet["Content-Type"] == "text/html; charset=utf-8"
    assert html.startswith('<div class="clubrating-embed">')
    assert "<script" not in html and "<html" not in html
    assert html.count("<tr><td") == 2
    again = client.get(
        f"/api/v1/clubs/{home_club.pk}/top.html?limit=2", headers={"If-None-Match": snippet["ETag"]}
    )
    assert again.status_code == 304


def test_names_are_escaped(client, rated_club, home_club):
    hostile = MemberFactory(first_name="<script>alert(1)</script>", last_name="<b>X", club=home_club)
    tournament = TournamentFactory(name="<img src=x onerror=alert(1)>", start_date=datetime.date(2026, 10, 1))
    TournamentPlayerFactory(tournament=tournament, member=hostile, start_rank=1)
    html = client.get(f"/embed/tournaments/{tournament.pk}/standings/").content.decode()
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>X" not in html
    assert "&lt;b&gt;X, &lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


@pytest.fixture
def running(rated_club):
    t = TournamentFactory(
        name="Vereinsmeisterschaft", start_date=datetime.date(2026, 10, 1), tiebreaks="BH,SB"
    )
    a, b, c, d = (
        MemberFactory(first_name=n, last_name="Spieler", club=rated_club["other_club"]) for n in "ABCD"
    )
    for rank, member in enumerate((a, b, c, d), start=1):
        TournamentPlayerFactory(tournament=t, member=member, start_rank=rank)
    rnd = RoundFactory(tournament=t, number=1)
    GameFactory(round=rnd, board=1, white=a, black=b, result=Result.WHITE_WINS)
    GameFactory(round=rnd, board=2, white=c, black=d, result=Result.NOT_PLAYED)
    return t


def test_standings_of_a_running_tournament_reload_themselves(client, running, settings):
    settings.EMBED_ALLOWED_SITES = ["https://www.sk-donaustadt.at"]
    response = client.get(f"/embed/tournaments/{running.pk}/standings/")
    html = response.content.decode()
    assert '<meta http-equiv="refresh" content="60">' in html
    assert csp(response)["frame-ancestors"] == "https://www.sk-donaustadt.at"
    rows = html.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count("<tr>") == 4
    assert '<td class="num">1</td><td>Spieler, A</td><td>SV Gäste</td><td class="num">1,0</td>' in rows
    running.rounds.get().games.filter(board=2).update(result=Result.DRAW)
    assert "http-equiv" not in client.get(f"/embed/tournaments/{running.pk}/standings/").content.decode()


def test_refused_where_the_pages_are_not_public(client, running, home_club):
    home_club.public_ratings = home_club.public_tournaments = False
    home_club.save()
    top = client.get(f"/embed/clubs/{home_club.pk}/top/")
    standings = client.get(f"/api/v1/tournaments/{running.pk}/standings.html")
    assert (top.status_code, standings.status_code) == (403, 403)
    assert "Die Wertungslisten dieser Website sind nicht öffentlich." in top.content.decode()
    assert "Hub" not in top.content.decode()
    assert standings.content.decode() == (
        '<div class="clubrating-embed"><p class="clubrating-note">'
        "Die Turniere dieser Website sind nicht öffentlich.</p></div>\n"
    )


def test_a_clubs_top_list_leaves_out_a_restricted_profile_for_visitors(client, rated_club, home_club,
                                                                        official):
    from clubrating.clubs.models import Member

    Member.objects.filter(pk=rated_club["bernd"].pk).update(profile_restricted=True)
    html = client.get(f"/api/v1/clubs/{home_club.pk}/top.html").content.decode()
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    rows = [line.strip() for line in body.split("</tr>") if line.strip()]
    # Being on his club's list would tell his club, which his profile keeps back.
    assert rows == [
        '<tr><td class="num">1</td><td>Berger, Anna</td><td class="num">1843</td><td class="num">+8</td>',
        '<tr><td class="num">2</td><td>Alt, Dora</td><td class="num">1500</td><td class="num"></td>',
    ]
    assert "Huber, Bernd" not in client.get(f"/embed/clubs/{home_club.pk}/top/").content.decode()
    client.force_login(official)
    assert "Huber, Bernd" in client.get(f"/embed/clubs/{home_club.pk}/top/").content.decode()
