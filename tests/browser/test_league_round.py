"""A league round on phones, in German (Debian's Chromium), as both captains and the director.

Donaustadt 1 (home) and Ottakring 1 play round 1 of the Landesliga: both captains submit their
lineups on a 390 px phone before the deadline (the opponent's stays hidden until it passes; a
lineup in the wrong order is refused with its reason), the home captain enters the results at the
board from the home side (his players have Black on boards 2 and 4), the away captain confirms
them. Another match of the round was disputed; the league director decides it on his phone and
moves a match of round 2. The same score is read on the table, the match page, the match report's
PDF and the API.
"""

import datetime
import io

import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader

from clubrating.leagues import services
from clubrating.leagues.models import LeagueMatch, MatchStatus
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.browser.conftest import SCREENSHOTS
from tests.factories import ClubFactory
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


@pytest.fixture
def phone(browser):
    """phone() -> a page in a new phone context of its own; the contexts are closed after the test
    (a page left open would go on polling, e.g. a live table every 10 s, beside later tests)."""
    contexts = []

    def open_page():
        contexts.append(browser.new_context(**PHONE))
        return contexts[-1].new_page()

    yield open_page
    for context in contexts:
        context.close()


def _passwords():
    for user in User.objects.all():
        user.set_password("liga-2026")
        user.save()


def _fits(page) -> None:
    """Nothing sticks out sideways on the phone."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def _shot(page, name):
    """A full-page screenshot (at twice the phone's pixels) costs about what loading the page does:
    taken only when asked for (CLUBRATING_SCREENSHOTS=1)."""
    import os

    if not SCREENSHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_a_round_as_two_captains_on_phones_and_the_director(phone, live_server, login, clock):
    ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True, public_tournaments=True)
    league = build_league()
    _passwords()
    match = league.match("Donaustadt 1", 1)
    url = f"{live_server.url}/leagues/match/{match.pk}/"
    home = phone()
    away = phone()
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
    reason = (f"Brett 2: {ott[0].full_name} (Rang 1) darf nicht hinter {ott[1].full_name} (Rang 2, "
              "Brett 1) sitzen: die Brettreihenfolge folgt der Meldeliste.")
    # Told while choosing, before submitting.
    away.locator(".league-check-problems li").wait_for()
    assert away.locator(".league-check-problems li").inner_text() == reason
    _shot(away, "2-away-lineup-checked-phone")
    away.get_by_role("button", name="Aufstellung abgeben").click()
    problem = away.locator(".league-problems li").inner_text()
    assert problem == reason
    _fits(away)
    _shot(away, "2-away-lineup-refused-phone")
    away.select_option("select[name=board_1]", str(ott[0].pk))
    away.select_option("select[name=board_2]", str(ott[1].pk))
    away.get_by_role("button", name="Aufstellung abgeben").click()
    # Saved: sent on to the match (the click does not wait for the answer; a busy server may take
    # a while, and the clock must not move on before the lineup is in).
    away.wait_for_url(url)
    assert away.url == url

    # After the deadline each sees the other's lineup.
    clock.value = at(DATES[0] - datetime.timedelta(days=1), 15)
    away.goto(url)
    assert don[0].full_name in away.locator(".league-board").first.inner_text()

    # At the board: the home captain enters the games from the home side (board 4 is empty: won by
    # forfeit). His player has Black on board 2 and wins: "1-0" as the card reads, 0-1 by colour.
    clock.value = at(DATES[0], 18)
    home.goto(url)
    assert home.locator(".league-board").nth(1).locator(".league-board-colour").inner_text() == (
        "Heimspieler hat Schwarz")
    home.click("label[for='e-board_1-1']")  # 1-0
    home.click("label[for='e-board_2-1']")  # 1-0: the home player (Black) wins
    home.click("label[for='e-board_3-3']")  # 0-1
    _fits(home)
    _shot(home, "3-home-results-phone")
    home.get_by_role("button", name="Ergebnisse speichern").click()
    assert home.locator(".league-score").inner_text() == "3,0 : 1,0"
    assert home.locator(".league-board-result").all_inner_texts() == ["1–0", "1–0", "0–1", "+–−"]
    assert home.locator(".league-status").inner_text() == "von der Heimmannschaft eingetragen"
    games = dict(LeagueMatch.objects.get(pk=match.pk).match.games.values_list("board", "result"))
    assert games == {1: Result.WHITE_WINS, 2: Result.BLACK_WINS, 3: Result.BLACK_WINS}

    # The away captain sees it waiting on his page and confirms.
    away.goto(f"{live_server.url}/leagues/captain/")
    waiting = away.locator(".league-waiting")
    assert "Donaustadt 1 – Ottakring 1 3,0 : 1,0" in waiting.inner_text()
    _fits(away)
    _shot(away, "4-away-captain-home-phone")
    waiting.click()
    assert away.locator(".league-board-result").all_inner_texts() == ["1–0", "1–0", "0–1", "+–−"]
    _shot(away, "5-away-confirm-phone")
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

    # The league director on his phone decides it.
    desk = phone()
    login(desk, "leiter", "liga-2026")
    desk.goto(f"{live_server.url}/leagues/season/{league.season.pk}/director/")
    disputed = desk.locator(".league-disputed")
    assert "Brett 3 endete 0-1." in disputed.inner_text()
    assert desk.locator(".league-missing .league-match-line").count() == 2  # the 1. Klasse's matches
    _fits(desk)
    _shot(desk, "6-director-queue-phone")
    disputed.locator(".league-match-line").click()
    # Board 3: Favoriten's player has White there; "0-1" reads from the home side as the card.
    desk.click("label[for='d-board_3-3']")  # 0-1
    desk.fill("#id_decision_reason", "Partieformular geprüft: Brett 3 endete 0-1.")
    desk.get_by_role("button", name="Entscheiden").click()
    assert desk.locator(".league-status").inner_text() == "vom Ligaleiter entschieden"
    assert "Brett 3: ½-½ → 0-1" in desk.locator(".league-history").inner_text()
    assert desk.locator(".league-score").inner_text() == "1,5 : 2,5"
    _fits(desk)
    _shot(desk, "7-director-decided-phone")
    other.refresh_from_db()
    assert other.status == MatchStatus.DECIDED

    # He opens round 1's matches, then round 2's, and moves a match of round 2.
    desk.get_by_role("link", name="Alle Kämpfe der Runde").click()
    assert desk.locator(".league-round-match").count() == 2
    decided = desk.locator(".league-round-match", has_text="Favoriten 1").inner_text()
    assert "vom Ligaleiter entschieden" in decided
    desk.locator("a.btn", has_text="2").first.click()
    moved = league.match("Donaustadt 1", 2)
    desk.locator(f".league-round-match[data-match='{moved.pk}'] .league-move-link").click()
    desk.fill("input[name=date]", "2026-10-23")
    desk.fill("input[name=time]", "19:00")
    desk.fill("input[name=venue]", "Gasthaus Stern, Wagramer Straße 1")
    desk.fill("input[name=reason]", "Spiellokal am 18.10. belegt")
    _fits(desk)
    _shot(desk, "8-director-move-phone")
    desk.get_by_role("button", name="Kampf verlegen").click()
    assert "Der Kampf ist verlegt." in desk.locator(".alert").first.inner_text()
    where = desk.locator("p.text-muted").first.inner_text()
    assert "23.10.2026 19:00 · Gasthaus Stern, Wagramer Straße 1" in where
    history = desk.locator(".league-history").inner_text()
    assert "Kampf verlegt" in history and "18.10.2026 14:00 → 23.10.2026 19:00" in history
    assert "Spiellokal am 18.10. belegt" in history
    moved.refresh_from_db()
    assert (moved.starts_at, moved.venue) == (at(datetime.date(2026, 10, 23), 19),
                                             "Gasthaus Stern, Wagramer Straße 1")

    # The same score everywhere: the table, the public match page, the report's PDF and the API.
    visitor = phone()
    visitor.goto(f"{live_server.url}/leagues/division/{league.first.pk}/")
    row = visitor.locator("tr[data-team='Donaustadt 1'] td")
    assert [row.nth(i).inner_text() for i in (0, 1, 6, 7)] == ["1", "Donaustadt 1", "2", "3,0"]
    _fits(visitor)
    _shot(visitor, "9-table-phone")
    visitor.goto(f"{live_server.url}/leagues/results/{match.pk}/")
    assert visitor.locator(".league-card-score").inner_text() == "3,0 : 1,0"
    assert visitor.locator(".league-card-boards td.fw-bold").all_inner_texts() == ["1–0", "1–0", "0–1", "+–−"]
    _fits(visitor)
    _shot(visitor, "10-public-match-phone")
    pdf = visitor.request.get(f"{live_server.url}/leagues/results/{match.pk}/report/?pdf=1")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
    assert "3,0 : 1,0" in text and text.count("1–0") == 2 and "0–1" in text and "+–−" in text
    api_url = f"{live_server.url}/api/v1/tournaments/{league.first.tournament_id}/matches"
    api = visitor.request.get(api_url).json()
    (played,) = [m for m in api["matches"] if m["id"] == match.pk]
    assert (played["home_points"], played["away_points"], played["status"]) == (3.0, 1.0, "confirmed")
    assert [b["result"] for b in played["boards"]] == ["1-0", "1-0", "0-1", "+-"]
    (moved_api,) = [m for m in api["matches"] if m["id"] == moved.pk]
    assert moved_api["venue"] == "Gasthaus Stern, Wagramer Straße 1"
