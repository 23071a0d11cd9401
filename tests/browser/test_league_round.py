"""A league round on phones and at the director's desk, in German (Debian's Chromium).

Donaustadt 1 (home) and Ottakring 1 play round 1 of the Landesliga: both captains submit their
lineups on a 390 px phone before the deadline (the opponent's stays hidden until it passes), the
home captain enters the results at the board, the away captain confirms them. Another match of
the round was disputed; the league director decides it at 1366 px.
"""

import datetime

import pytest
from django.contrib.auth.models import User

from clubrating.leagues import services
from clubrating.leagues.models import LeagueMatch, MatchStatus
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.leagues.conftest import DATES, at, build_league, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
SHOTS = "/tmp/league-shots"


class Clock:
    value = at(DATES[0] - datetime.timedelta(days=2), 12)


@pytest.fixture
def clock(monkeypatch):
    """The server's clock (services and pages read ``timezone.now``)."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: Clock.value)
    Clock.value = at(DATES[0] - datetime.timedelta(days=2), 12)
    return Clock


def _passwords():
    for user in User.objects.all():
        user.set_password("liga-2026")
        user.save()


def _fits(page) -> None:
    """Nothing sticks out sideways on the phone."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def _shot(page, name):
    import os

    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_a_round_as_two_captains_on_phones_and_the_director(browser, live_server, login, clock):
    league = build_league()
    _passwords()
    match = league.match("Donaustadt 1", 1)
    url = f"{live_server.url}/leagues/match/{match.pk}/"
    home = browser.new_context(**PHONE).new_page()
    away = browser.new_context(**PHONE).new_page()
    login(home, "donaustadt1", "liga-2026")
    login(away, "ottakring1", "liga-2026")

    # The home captain finds the match under "Meine Mannschaften" and submits his lineup.
    home.goto(f"{live_server.url}/leagues/captain/")
    assert home.locator("h1").inner_text() == "Meine Mannschaften"
    home.locator(".league-match-line", has_text="Donaustadt 1 – Ottakring 1").click()
    home.locator(".league-lineup-link", has_text="Aufstellung von Donaustadt 1").click()
    don = league.players["Donaustadt"]
    for board, member in enumerate(don[:4], start=1):
        home.select_option(f"select[name=board_{board}]", str(member.pk))
    _fits(home)
    _shot(home, "1-home-lineup-phone")
    home.get_by_role("button", name="Aufstellung abgeben").click()
    assert "Die Aufstellung von Donaustadt 1 ist abgegeben." in home.locator(".alert").first.inner_text()

    # The away captain tries a wrong board order, reads why, and leaves board 4 empty.
    away.goto(url)
    assert away.locator(".league-board").first.inner_text().count("bis zur Frist verborgen") == 1
    away.locator(".league-lineup-link").click()
    ott = league.players["Ottakring"]
    away.select_option("select[name=board_1]", str(ott[1].pk))
    away.select_option("select[name=board_2]", str(ott[0].pk))
    away.select_option("select[name=board_3]", str(ott[2].pk))
    away.get_by_role("button", name="Aufstellung abgeben").click()
    problem = away.locator(".league-problems li").inner_text()
    assert problem == (f"Brett 2: {ott[0].full_name} (Rang 1) darf nicht hinter {ott[1].full_name} (Rang 2, "
                       "Brett 1) sitzen: die Brettreihenfolge folgt der Rangliste.")
    _fits(away)
    _shot(away, "2-away-lineup-refused-phone")
    away.select_option("select[name=board_1]", str(ott[0].pk))
    away.select_option("select[name=board_2]", str(ott[1].pk))
    away.get_by_role("button", name="Aufstellung abgeben").click()
    assert away.url == url

    # After the deadline each sees the other's lineup.
    clock.value = at(DATES[0] - datetime.timedelta(days=1), 15)
    away.goto(url)
    assert don[0].full_name in away.locator(".league-board").first.inner_text()

    # At the board: the home captain enters the three games (board 4 is empty: won by forfeit).
    clock.value = at(DATES[0], 18)
    home.goto(url)
    home.click("label[for='e-board_1-1']")  # 1-0
    home.click("label[for='e-board_2-2']")  # ½-½
    home.click("label[for='e-board_3-3']")  # 0-1
    _fits(home)
    _shot(home, "3-home-results-phone")
    home.get_by_role("button", name="Ergebnisse speichern").click()
    assert home.locator(".league-score").inner_text() == "2,5 : 1,5"
    assert home.locator(".league-status").inner_text() == "von der Heimmannschaft eingetragen"

    # The away captain confirms.
    away.goto(url)
    _shot(away, "4-away-confirm-phone")
    away.get_by_role("button", name="Das Ergebnis stimmt").click()
    assert away.locator(".league-status").inner_text() == "von der Gastmannschaft bestätigt"
    _fits(away)
    assert LeagueMatch.objects.get(pk=match.pk).status == MatchStatus.CONFIRMED

    # Meanwhile Favoriten 1 – Hietzing 1 was entered and disputed.
    clock.value = at(DATES[0] - datetime.timedelta(days=2), 12)
    submit(league, "Favoriten 1", 1, [1, 2, 3, 4])
    submit(league, "Hietzing 1", 1, [1, 2, 3, 4])
    other = league.match("Favoriten 1", 1)
    clock.value = at(DATES[0], 19)
    services.match_results_enter(match=other, results={b: Result.DRAW for b in range(1, 5)},
                                 user=league.captains["Favoriten 1"], record=game_record_result)
    services.match_dispute(match=other, user=league.captains["Hietzing 1"], reason="Brett 3 endete 0-1.")

    # The league director at his desk decides it.
    desk = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    login(desk, "leiter", "liga-2026")
    desk.goto(f"{live_server.url}/leagues/season/{league.season.pk}/director/")
    disputed = desk.locator(".league-disputed")
    assert "Brett 3 endete 0-1." in disputed.inner_text()
    assert desk.locator(".league-missing .league-match-line").count() == 2  # the 1. Klasse's matches
    _shot(desk, "5-director-queue-1366")
    disputed.locator(".league-match-line").click()
    desk.click("label[for='d-board_3-3']")  # 0-1
    desk.fill("#id_decision_reason", "Partieformular geprüft: Brett 3 endete 0-1.")
    desk.get_by_role("button", name="Entscheiden").click()
    assert desk.locator(".league-status").inner_text() == "vom Ligaleiter entschieden"
    assert "Brett 3: ½-½ → 0-1" in desk.locator(".league-history").inner_text()
    _shot(desk, "6-director-decided-1366")
    other.refresh_from_db()
    assert other.status == MatchStatus.DECIDED
