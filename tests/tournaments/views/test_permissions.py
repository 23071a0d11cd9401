"""Every protected tournament view refuses unauthorised users: login page or 403."""

import pytest
from django.test import Client
from django.urls import reverse

from clubrating.tournaments.models import Game, ResultChange
from tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def _urls(tournament):
    game = Game.objects.get(round__tournament=tournament, board=1)
    pk = tournament.pk
    return {
        "official_get": [
            reverse("tournaments:create"),
            reverse("tournaments:register", args=[pk]),
            reverse("tournaments:pair", args=[pk]),
            reverse("tournaments:results", args=[pk, 1]),
            reverse("tournaments:pairing_edit", args=[pk, 1, game.pk]),
        ],
        "official_post": [
            (reverse("tournaments:create"), {"name": "X", "kind": "swiss", "start_date": "2026-01-01"}),
            (reverse("tournaments:register", args=[pk]), {"members": [MemberFactory().pk]}),
            (reverse("tournaments:pair", args=[pk]), {}),
            (reverse("tournaments:board_result", args=[pk, 1, game.pk]), {"result": "1-0", "seen": ""}),
            (reverse("tournaments:game_correct", args=[game.pk]), {"result": "1-0", "seen": ""}),
            (reverse("tournaments:pairing_edit", args=[pk, 1, game.pk]),
             {"white": game.black_id, "black": game.white_id}),
            (reverse("tournaments:pairing_swap", args=[pk, 1, game.pk]), {}),
        ],
        "public": [
            reverse("tournaments:list"),
            reverse("tournaments:detail", args=[pk]),
            reverse("tournaments:players", args=[pk]),
            reverse("tournaments:pairings", args=[pk]),
            reverse("tournaments:round", args=[pk, 1]),
            reverse("tournaments:standings", args=[pk]),
            reverse("tournaments:crosstable", args=[pk]),
            reverse("tournaments:evaluation", args=[pk]),
            reverse("tournaments:game", args=[game.pk]),
            reverse("tournaments:print", args=[pk, "standings"]),
            reverse("tournaments:print", args=[pk, "crosstable"]),
            reverse("tournaments:round_print", args=[pk, 1]),
            reverse("tournaments:standings_export", args=[pk, "csv"]),
        ],
    }


def _unchanged(tournament):
    game = Game.objects.get(round__tournament=tournament, board=1)
    assert game.result == ""
    assert (game.white.last_name, game.black.last_name) == ("Adler", "Berger")
    assert not ResultChange.objects.exists()
    assert tournament.players.count() == 4
    assert tournament.rounds.count() == 1


def test_visitors_are_sent_to_the_login_page_by_official_views(tournament):
    client = Client()
    urls = _urls(tournament)
    for url in urls["official_get"]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login") + "?next="), url
    for url, data in urls["official_post"]:
        response = client.post(url, data)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url
    _unchanged(tournament)


def test_logged_in_users_without_the_role_get_403(client, plain_user, tournament):
    client.force_login(plain_user)
    urls = _urls(tournament)
    for url in urls["official_get"]:
        assert client.get(url).status_code == 403, url
    for url, data in urls["official_post"]:
        assert client.post(url, data).status_code == 403, url
    _unchanged(tournament)


def test_results_cannot_be_saved_by_get(official_client, tournament):
    """GET only draws the board's form afresh (a cancelled change); it saves nothing."""
    game = Game.objects.get(round__tournament=tournament, board=1)
    url = reverse("tournaments:board_result", args=[tournament.pk, 1, game.pk])
    response = official_client.get(url, {"result": "1-0"})
    assert response.status_code == 200 and f'data-board="{game.board}"' in response.content.decode()
    assert official_client.put(url).status_code == 405
    _unchanged(tournament)


def test_visitors_read_tournaments_when_the_club_makes_them_public(tournament):
    client = Client()
    for url in _urls(tournament)["public"]:
        assert client.get(url).status_code == 200, url


def test_visitors_are_sent_to_the_login_page_when_tournaments_are_private(home_club, tournament):
    home_club.public_tournaments = False
    home_club.save()
    client = Client()
    for url in _urls(tournament)["public"]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url


def test_logged_in_members_read_private_tournaments(home_club, plain_user, tournament):
    home_club.public_tournaments = False
    home_club.save()
    client = Client()
    client.force_login(plain_user)
    for url in _urls(tournament)["public"]:
        assert client.get(url).status_code == 200, url


def test_officials_links_are_hidden_from_others(official_client, tournament):
    official_html = official_client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    visitor_html = Client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    results_url = reverse("tournaments:results", args=[tournament.pk, 1])
    assert results_url in official_html
    assert results_url not in visitor_html
    assert reverse("tournaments:pair", args=[tournament.pk]) not in visitor_html
