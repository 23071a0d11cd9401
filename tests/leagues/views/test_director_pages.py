"""The league director's round and move pages, and the captain's start page on his phone."""

import datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.leagues.models import MatchEvent, MatchEventKind
from tests.leagues.conftest import DATES, at, submit

pytestmark = pytest.mark.usefixtures("english")


def client_for(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


@pytest.fixture
def now(monkeypatch):
    class Clock:
        value = at(DATES[0] - datetime.timedelta(days=2), 12)

    monkeypatch.setattr("django.utils.timezone.now", lambda: Clock.value)
    return Clock


def test_the_director_sees_a_rounds_matches_with_their_state(league, now):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    director = client_for(league.director)
    home = director.get(reverse("leagues:director", args=[league.season.pk])).content.decode()
    url = reverse("leagues:director_round", args=[league.first.pk, 1])
    assert f'href="{url}"' in home
    page = director.get(url).content.decode()
    assert page.count('class="list-group-item league-round-match"') == 2
    donaustadt = page.split(f'data-match="{league.match("Donaustadt 1", 1).pk}"')[1].split(
        'league-round-match"'
    )[0]
    assert 'Lineups: Donaustadt 1 ✓ · Ottakring 1 <span class="text-danger">missing</span>' in donaustadt
    assert "– : –" in donaustadt
    assert director.get(reverse("leagues:director_round", args=[league.first.pk, 9])).status_code == 404
    captain = client_for(league.captains["Donaustadt 1"])
    assert captain.get(url).status_code == 403


def test_the_director_moves_a_match_and_it_is_listed_under_its_new_date(league, now):
    match = league.match("Donaustadt 1", 1)
    director = client_for(league.director)
    url = reverse("leagues:match_move", args=[match.pk])
    assert director.get(url).status_code == 200
    response = director.post(
        url, {"date": "2026-10-09", "time": "19:30", "venue": "Gasthaus Stern", "reason": ""}
    )
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    response = director.post(
        url, {"date": "2026-10-09", "time": "19:30", "venue": "Gasthaus Stern", "reason": "Saal belegt"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.starts_at, match.venue) == (at(datetime.date(2026, 10, 9), 19, 30), "Gasthaus Stern")
    (event,) = MatchEvent.objects.filter(match=match, kind=MatchEventKind.MOVED)
    assert event.reason == "04.10.2026 14:00 → 09.10.2026 19:30 · — → Gasthaus Stern · Saal belegt"
    page = director.get(reverse("leagues:match", args=[match.pk])).content.decode()
    assert "Round 1 · 2026-10-09 19:30 · Gasthaus Stern" in page
    round_page = director.get(reverse("leagues:director_round", args=[league.first.pk, 1])).content.decode()
    assert "Gasthaus Stern" in round_page
    # A captain may not move it; the round's lineups were due 24 hours before the new start.
    captain = client_for(league.captains["Donaustadt 1"])
    assert captain.get(url).status_code == 403
    assert captain.post(url, {"date": "2026-10-10", "time": "10:00", "reason": "x"}).status_code == 403


def test_the_captains_page_shows_the_next_match_its_deadline_and_a_result_to_confirm(league, now):
    page = client_for(league.captains["Donaustadt 1"]).get(reverse("leagues:captain_home")).content.decode()
    nxt = page.split('class="card mb-2 league-next"')[1]
    assert "Donaustadt 1 – Ottakring 1" in nxt and "Lineup not submitted yet" in nxt
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    page = client_for(league.captains["Donaustadt 1"]).get(reverse("leagues:captain_home")).content.decode()
    assert "Lineup submitted on" in page.split('class="card mb-2 league-next"')[1]
    now.value = at(DATES[0], 18)
    match = league.match("Donaustadt 1", 1)
    client_for(league.captains["Donaustadt 1"]).post(
        reverse("leagues:match_results", args=[match.pk]),
        {"board_1": "1-0", "board_2": "1-0", "board_3": "1/2", "board_4": "0-1"},
    )
    away = client_for(league.captains["Ottakring 1"]).get(reverse("leagues:captain_home")).content.decode()
    waiting = away.split("league-waiting")[1].split("</a>")[0]
    assert "Donaustadt 1 – Ottakring 1" in waiting and "2.5 : 1.5" in waiting
    assert "league-roster-link" in away


def test_the_lineup_form_marks_who_cannot_play_and_asks_about_an_empty_board(league, now):
    submit(league, "Donaustadt 2", 1, [5, 6, 7, 8])
    match = league.match("Donaustadt 1", 1)
    captain = client_for(league.captains["Donaustadt 1"])
    url = reverse("leagues:lineup", args=[match.pk, league.teams["Donaustadt 1"].pk])
    page = captain.get(url).content.decode()
    players = league.players["Donaustadt"]
    assert f"5. {players[4].full_name} (2) · ✗ plays for Donaustadt 2 this round" in page
    assert f"1. {players[0].full_name} (1)</option>" in page
    response = captain.post(url, {"board_1": players[0].pk, "board_3": players[1].pk})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Board 2 is empty although boards below it have players" in html
    assert not match.match.lineup.exists()
    response = captain.post(url, {"board_1": players[0].pk, "board_3": players[1].pk, "confirm_gaps": "on"})
    assert response.status_code == 302
    assert list(match.match.lineup.values_list("board", "member")) == [(1, players[0].pk), (3, players[1].pk)]
    # The same player on two boards is refused by name and boards.
    response = captain.post(url, {"board_1": players[0].pk, "board_2": players[0].pk, "confirm_gaps": "on"})
    assert f"Board 2: {players[0].full_name} is lined up on board 1 already" in response.content.decode()


def test_after_the_deadline_a_captain_is_pointed_to_the_league_director(league, now):
    league.director.first_name, league.director.last_name, league.director.email = (
        "Lea",
        "Leiter",
        "lea@example.at",
    )
    league.director.save()
    now.value = at(DATES[0], 10)
    match = league.match("Donaustadt 1", 1)
    captain = client_for(league.captains["Donaustadt 1"])
    page = captain.get(reverse("leagues:lineup", args=[match.pk, league.teams["Donaustadt 1"].pk]))
    html = page.content.decode()
    assert "Only the league director can still set or change this lineup" in html
    assert 'Lea Leiter · <a href="mailto:lea@example.at">lea@example.at</a>' in html
