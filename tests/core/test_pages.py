"""Public pages render the demo club's data; login works and protects what must be protected."""

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Game, Tournament
from ratings.models import RatingPool

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(demo_club, db):
    """The demo club of the whole module (tests/conftest.py)."""


def test_home_shows_the_club_and_its_tournaments(client, demo):
    html = client.get("/").content.decode()
    assert "Schachklub Donaustadt" in html
    assert "Vereinsmeisterschaft 2026" in html


def test_member_list_is_searchable(client, demo):
    html = client.get(reverse("clubs:member_list"), {"q": "Gruber"}).content.decode()
    assert "Gruber" in html
    assert "Huber" not in html


def test_member_list_sorts(client, demo):
    response = client.get(reverse("clubs:member_list"), {"sort": "-fide_rating"})
    ratings = [m.fide_rating for m in response.context["table"].page.object_list.data[:5]]
    assert ratings == sorted(ratings, key=lambda r: -(r or 0))


def test_tournament_pages_show_rounds_and_results(client, demo):
    tournament = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    html = client.get(tournament.get_absolute_url()).content.decode()
    game = Game.objects.filter(round__tournament=tournament).select_related("white").first()
    assert game.white.last_name in html
    assert client.get(reverse("tournaments:list")).status_code == 200
    round_html = client.get(reverse("tournaments:round", args=[tournament.pk, 1])).content.decode()
    assert game.get_result_display() in round_html
    assert client.get(game.get_absolute_url()).status_code == 200


def test_login_and_logout(client, demo):
    response = client.post(reverse("login"), {"username": "member", "password": "member"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "member"
    client.post(reverse("logout"))
    assert client.get("/").context["user"].is_anonymous


def test_wrong_password_is_refused_with_a_message(client, demo):
    response = client.post(reverse("login"), {"username": "member", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_assets_are_served_locally(client, demo):
    html = client.get("/").content.decode()
    assert "/static/bootstrap/css/bootstrap.min.css" in html
    assert "/static/django_htmx/htmx" in html or "htmx" in html
    assert "cdn" not in html.lower()


@pytest.mark.parametrize("url", ["/members/", "/tournaments/", "live-list"])
def test_wide_tables_scroll_inside_their_box_on_phones(client, demo, url):
    if url == "live-list":  # primary keys differ between databases (PostgreSQL keeps sequences)
        url = reverse("ratings:live", args=[RatingPool.objects.get().pk])
    html = client.get(url).content.decode()
    assert '<div class="table-responsive' in html
    assert html.index('<div class="table-responsive') < html.index("<table")


def test_not_found_page_offers_the_main_pages(client, demo):
    response = client.get("/does-not-exist/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Seite nicht gefunden" in html
    main = html[html.index("<main"):]  # the links of the page itself, not of the navigation
    for name in ("home", "tournaments:list", "ratings:pool_list", "clubs:member_list"):
        assert f'href="{reverse(name)}"' in main


def test_standings_tie_breaks_have_two_decimals_and_a_legend(client, demo):
    tournament = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    html = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert '<td class="num d-none d-md-table-cell">122,75</td>' in html  # Sonneborn-Berger of the winner
    assert "Was bedeuten die Feinwertungs-Kürzel?" in html
