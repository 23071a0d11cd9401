"""A team competition that backs a league division is run on the league's pages: an official's
tournament pages refuse to change its schedule, lineups and results (they would bypass the lineup
rules, the captains' confirmation and the league director's decisions)."""

from html import escape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.tournaments.models import Game, LineupEntry
from tests.leagues.conftest import build_league, submit

pytestmark = pytest.mark.django_db


def test_an_official_cannot_change_a_league_division_on_the_tournament_pages(home_club, official):
    league = build_league()
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    tournament = league.first.tournament
    match = league.match("Donaustadt 1", 1).match
    game = match.games.get(board=1)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(official)  # an official of the club, not the season's league director
    before = list(Game.objects.values_list("pk", "white_id", "black_id", "result", "date"))
    lineup = list(LineupEntry.objects.values_list("match_id", "team_id", "board", "member_id"))
    posts = [
        (
            reverse("tournaments:board_result", args=[tournament.pk, 1, game.pk]),
            {"result": "1-0", "seen": ""},
        ),
        (
            reverse("tournaments:game_correct", args=[game.pk]),
            {"result": "1-0", "rated_result": "1-0", "seen": ""},
        ),
        (reverse("tournaments:round_date", args=[tournament.pk, 1]), {"date": "2026-10-11"}),
        (reverse("tournaments:pairing_swap", args=[tournament.pk, 1, game.pk]), {}),
        (reverse("tournaments:unpair", args=[tournament.pk]), {}),
        (
            reverse("tournaments:lineup", args=[tournament.pk, match.pk, match.home_team_id]),
            {"board_1": league.players["Donaustadt"][8].pk},
        ),
        (reverse("tournaments:team_pair", args=[tournament.pk]), {}),
    ]
    rounds = reverse("leagues:division_rounds", args=[league.first.pk])
    for url, data in posts:
        response = client.post(url, data, follow=True)
        assert response.redirect_chain == [(rounds, 302)], url
        assert (
            escape(
                "This tournament is the division Landesliga of a league season: its rounds, lineups and "
                "results are changed on the league's pages."
            )
            in response.content.decode()
        )
    for name, args in (
        ("results", [tournament.pk, 1]),
        ("pair", [tournament.pk]),
        ("teams_manage", [tournament.pk]),
    ):
        assert client.get(reverse(f"tournaments:{name}", args=args)).url == rounds
    assert list(Game.objects.values_list("pk", "white_id", "black_id", "result", "date")) == before
    assert list(LineupEntry.objects.values_list("match_id", "team_id", "board", "member_id")) == lineup


def test_the_tournament_pages_of_a_league_division_lead_an_official_to_the_league(home_club, official):
    """A division's tournament has teams and matches, no Swiss field: its overview, players,
    pairings, rounds, standings, crosstable, progress and hall screen show the league's own table,
    rounds or players instead (an empty list of players or a Swiss table said nothing); its rating
    evaluation stays, as its games are rated."""
    league = build_league()
    tournament = league.first.tournament
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(official)
    table = reverse("leagues:division", args=[league.first.pk])
    rounds = reverse("leagues:division_rounds", args=[league.first.pk])
    players = reverse("leagues:division_players", args=[league.first.pk])
    expected = {
        ("detail", ()): table,
        ("players", ()): players,
        ("pairings", ()): rounds,
        ("round", (2,)): rounds + "?round=2",
        ("standings", ()): table,
        ("crosstable", ()): table,
        ("progress", ()): table,
        ("hall", ()): rounds,
    }
    for (name, extra), target in expected.items():
        response = client.get(reverse(f"tournaments:{name}", args=[tournament.pk, *extra]))
        assert (name, response.status_code, response.url) == (name, 302, target)
    assert client.get(reverse("tournaments:evaluation", args=[tournament.pk])).status_code == 200
