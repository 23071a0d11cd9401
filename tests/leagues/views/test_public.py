"""The league's public pages while a season is under way: the rounds with match cards and
forecast, lineups hidden until their deadline, live polling and the caches. The pages of the
Landesliga played through are in test_public_played.py."""

import datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory
from tests.leagues.conftest import DATES, at, submit
from tests.leagues.played import rate_everyone

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def public(db):
    return ClubFactory(
        name="Schachklub Heimat", short_name="SK Heimat", is_home=True, public_tournaments=True
    )


@pytest.fixture
def visitor():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_only_logged_in_users_when_tournaments_are_not_public(league, visitor):
    ClubFactory(name="Schachklub Heimat", is_home=True, public_tournaments=False)
    page = visitor.get(reverse("leagues:division", args=[league.first.pk]))
    assert page.status_code == 302


def test_the_rounds_page_shows_match_cards_and_the_forecast_once_the_lineups_are_visible(
    league, public, visitor, monkeypatch
):
    rate_everyone(league)
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    url = reverse("leagues:division_rounds", args=[league.first.pk]) + "?round=1"
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0] - datetime.timedelta(days=2), 12))
    html = visitor.get(url).content.decode()
    assert html.count("hidden until the deadline") == 16  # both matches, both sides, four boards
    assert "Forecast" not in html
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 13))
    html = visitor.get(url).content.decode()
    assert "hidden until the deadline" not in html
    # Equal ratings on every board.
    assert "Forecast 2.00 : 2.00" in html
    assert "Spieler1" in html


def test_the_table_polls_live_and_an_unchanged_table_is_not_sent_again(league, public, visitor, monkeypatch):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 15))
    url = reverse("leagues:division", args=[league.first.pk])
    html = visitor.get(url).content.decode()
    assert 'hx-trigger="every 10s"' in html
    version = html.split('data-version="')[1].split('"')[0]
    assert visitor.get(url, {"fragment": "1", "v": version}).status_code == 204
    fragment = visitor.get(url, {"fragment": "1", "v": "old"})
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert 'id="live-standings"' in text
    assert "<html" not in text  # the table alone, not the page


def test_the_forecast_reads_the_ratings_valid_on_the_match_day(league, public, visitor, monkeypatch):
    from ratings.services.lists import EntryData, list_publish

    pool = rate_everyone(league)  # equal on every board from 1 January 2026
    # A list valid from 10 October 2026 makes Donaustadt's players 400 points stronger.
    entries = {
        member.pk: EntryData(rating=2100 - 100 * rank + (400 if club == "Donaustadt" else 0), games_count=40)
        for club in ("Donaustadt", "Favoriten", "Hietzing", "Ottakring")
        for rank, member in enumerate(league.players[club][:4], start=1)
    }
    list_publish(pool=pool, entries=entries, kind="start", valid_from=datetime.date(2026, 10, 10))
    for number in (1, 2):
        submit(league, "Donaustadt 1", number, [1, 2, 3, 4])
        submit(league, league.opponent("Donaustadt 1", number), number, [1, 2, 3, 4])
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 13))
    url = reverse("leagues:division_rounds", args=[league.first.pk])
    # Round 1 on 4 October: the list of 1 January.
    assert "Forecast 2.00 : 2.00" in visitor.get(url + "?round=1").content.decode()
    # Round 2 on 18 October: the list of 10 October, 400 points more on every board: E(400) =
    # 0.9198 (docs/rules.md §1.1), 4 × 0.9198 = 3.68.
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[1], 13))
    assert "Forecast 3.68 : 0.32" in visitor.get(url + "?round=2").content.decode()


def test_a_lineup_before_its_deadline_shows_on_no_page_of_the_divisions_tournament(
    league, public, visitor, monkeypatch
):
    """The league's pages hide a lineup until its deadline; so do the tournament's pages, its API
    and the TRF files, which show the division's games and lineups as any team competition's."""
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    tournament = league.first.tournament
    game = league.match("Donaustadt 1", 1).match.games.get(board=1)
    pages = [
        reverse("tournaments:pairings", args=[tournament.pk]),  # the league's rounds
        reverse("tournaments:round", args=[tournament.pk, 1]),
        reverse("tournaments:team_matches", args=[tournament.pk]),
        reverse("tournaments:game", args=[game.pk]),
        f"/api/v1/tournaments/{tournament.pk}/rounds/1",
        f"/api/v1/tournaments/{tournament.pk}/pairings",
        reverse("interchange:tournament_trf", args=[tournament.pk]),
        reverse("leagues:division_trf", args=[league.first.pk]),
    ]

    def seen():
        found = []
        for url in pages:
            response = visitor.get(url, follow=True)
            assert response.status_code in (200, 404), url
            body = b"".join(response.streaming_content) if response.streaming else response.content
            text = body.decode()
            found.append(("Spieler1, Don" in text, "Spieler1, Ott" in text))
        return found

    deadline = DATES[0] - datetime.timedelta(days=1)  # 3 October, 14:00
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(deadline, 13, 59))
    assert seen() == [(False, False)] * len(pages)
    assert visitor.get(reverse("tournaments:game", args=[game.pk])).status_code == 404
    trf = visitor.get(reverse("leagues:division_trf", args=[league.first.pk])).content.decode()
    assert [line[:3] for line in trf.splitlines() if line[:3] in ("001", "300")] == []
    # The team competition's own table and matches are the league's pages.
    assert visitor.get(reverse("tournaments:team_standings", args=[tournament.pk])).url == reverse(
        "leagues:division", args=[league.first.pk]
    )
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(deadline, 14))
    assert seen() == [(True, True)] * len(pages)


def test_the_live_pages_see_a_confirmation_and_a_team_that_did_not_appear(
    league, public, visitor, monkeypatch
):
    from clubrating.leagues import services
    from clubrating.tournaments.models import Result
    from ratings.services import game_record_result

    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    submit(league, "Favoriten 1", 1, [1, 2, 3, 4])  # Hietzing does not appear
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 19))
    match = league.match("Donaustadt 1", 1)
    services.match_results_enter(
        match=match,
        results={board: Result.DRAW for board in (1, 2, 3, 4)},
        user=league.captains["Donaustadt 1"],
        record=game_record_result,
    )
    rounds = reverse("leagues:division_rounds", args=[league.first.pk])
    table = reverse("leagues:division", args=[league.first.pk])

    def version(url):
        html = visitor.get(url, {"round": 1}).content.decode()
        assert 'hx-trigger="every 10s"' in html  # Favoriten – Hietzing is still open
        return html.split('data-version="')[1].split('"')[0]

    before = version(rounds)
    services.match_confirm(match=match, user=league.captains["Ottakring 1"])
    fragment = visitor.get(rounds, {"fragment": "1", "round": 1, "v": before})
    assert fragment.status_code == 200
    assert "confirmed by the away team" in fragment.content.decode()
    # Hietzing did not appear: no game changes, the table does.
    before = version(table)
    services.match_decide(
        match=league.match("Favoriten 1", 1),
        user=league.director,
        reason="Hietzing nicht angetreten",
        record=game_record_result,
        absent="away",
    )
    fragment = visitor.get(table, {"fragment": "1", "v": before})
    assert fragment.status_code == 200
    row = fragment.content.decode().split('<tr data-team="Favoriten 1">')[1].split("</tr>")[0]
    assert [cell.rsplit(">", 1)[1] for cell in row.split("</td>")[:-1]][6:8] == ["2", "4.0"]


def _row(html: str, team: str) -> list[str]:
    """The texts of the cells of ``team``'s row of the division table."""
    row = html.split(f'<tr data-team="{team}">')[1].split("</tr>")[0]
    return [cell.rsplit(">", 1)[1] for cell in row.split("</td>")[:-1]]


def test_the_table_and_players_pages_are_cached_until_a_league_save_changes_them(
    league, public, visitor, django_assert_max_num_queries
):
    """Drawn once, served from the cache to the next reader (and a 304 to a browser that has
    the page), and drawn anew at once when a captain's result or confirmation changes them."""
    from tests.leagues.played import play

    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    table_url = reverse("leagues:division", args=[league.first.pk])
    players_url = reverse("leagues:division_players", args=[league.first.pk])
    favoriten = str(league.players["Favoriten"][0])
    first = visitor.get(table_url)
    assert _row(first.content.decode(), "Favoriten 1")[2:7] == ["0", "0", "0", "0", "0"]
    assert _row(first.content.decode(), "Donaustadt 1")[2:8] == ["1", "1", "0", "0", "2", "2.5"]
    assert favoriten not in visitor.get(players_url).content.decode()
    with django_assert_max_num_queries(19):  # its version only: not the season's matches and games
        again = visitor.get(table_url)
    assert _row(again.content.decode(), "Donaustadt 1") == _row(first.content.decode(), "Donaustadt 1")
    assert visitor.get(table_url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    play(league, "Favoriten 1", 1, "LLWW")
    after = visitor.get(table_url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert after.status_code == 200
    assert _row(after.content.decode(), "Favoriten 1")[2:8] == ["1", "0", "1", "0", "1", "2.0"]
    assert favoriten in visitor.get(players_url).content.decode()


def test_the_rounds_page_is_cached_until_a_result_changes_its_cards(league, public, visitor):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.leagues.played import play

    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    url = reverse("leagues:division_rounds", args=[league.first.pk]) + "?round=1"
    with CaptureQueriesContext(connection) as cold:
        first = visitor.get(url).content.decode()
    with CaptureQueriesContext(connection) as warm:
        again = visitor.get(url).content.decode()
    assert len(warm.captured_queries) < len(cold.captured_queries)
    assert again.count("2.5 : 1.5") == first.count("2.5 : 1.5") == 1 and "2.0 : 2.0" not in first
    play(league, "Favoriten 1", 1, "LLWW")
    assert "2.0 : 2.0" in visitor.get(url).content.decode()  # Favoriten 1 – Hietzing 1
