"""The tournament list: each listed tournament's players (or teams) and state, read for the page's
rows only, and the list sorted by its players in SQL."""

import re

import pytest
from django.urls import reverse

from tests.factories import TeamFactory, TournamentFactory, TournamentPlayerFactory
from tests.language import speak

pytestmark = pytest.mark.django_db


def _rows(client, query: str = "") -> list[tuple[str, str]]:
    speak(client, "en")
    html = client.get(reverse("tournaments:list") + query).content.decode()
    # The name, then (after the rounds, 9) the players' cell.
    return re.findall(r'<a href="/tournaments/\d+/">([^<]+)</a>.*?'
                      r'<td[^>]*class="[^"]*num[^"]*"[^>]*>\s*9\s*</td>'
                      r'\s*<td[^>]*>\s*([^<]+?)\s*</td>', html, re.S)


def test_the_list_shows_each_tournaments_players_or_teams_and_sorts_by_them(client):
    for name, players in (("Eins", 1), ("Drei", 3), ("Zwei", 2)):
        tournament = TournamentFactory(name=name, rounds_count=9)
        for rank in range(1, players + 1):
            TournamentPlayerFactory(tournament=tournament, start_rank=rank)
    league = TournamentFactory(name="Liga", kind="team", rounds_count=9)
    TeamFactory.create_batch(4, tournament=league)
    by_players = _rows(client, "?sort=-player_count")
    # A team competition has no players of its own: it sorts by them as 0 (and shows its teams).
    assert by_players == [("Drei", "3"), ("Zwei", "2"), ("Eins", "1"), ("Liga", "4 teams")]
    assert sorted(_rows(client)) == sorted(by_players)


@pytest.mark.parametrize("page", ["7", "x"])
def test_a_page_past_the_end_or_no_number_shows_its_tournaments_players(client, page):
    tournament = TournamentFactory(name="Eins", rounds_count=9)
    TournamentPlayerFactory.create_batch(2, tournament=tournament)
    # The last page (or the first) is shown, with its players as on the page itself.
    assert _rows(client, f"?page={page}") == [("Eins", "2")]
