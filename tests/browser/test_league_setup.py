"""Setting up a league season on a phone, in German (Debian's Chromium): an official creates the
season, adds a division, registers two teams and makes the schedule after previewing its dates;
then, on a running season's roster page, moves a player to another team."""

import datetime
import os

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from clubrating.leagues.models import LeagueMatch, LeagueSeason, RosterChange
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_league_round import phone  # noqa: F401 (fixture)
from tests.factories import ClubFactory
from tests.leagues.conftest import build_league
from tests.ratings.factories import set_today

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/leaguesetup-shots"


def _fits(page) -> None:
    """Nothing sticks out sideways on the phone."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def _shot(page, name):
    """Only when asked for (CLUBRATING_SCREENSHOTS=1): a full-page screenshot costs about what
    loading the page does."""
    if not SCREENSHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_an_official_sets_up_a_season_on_a_phone(phone, live_server, login, monkeypatch):  # noqa: F811
    # The roster move is dated 10 October 2026: the server's today is a little later.
    set_today(monkeypatch, datetime.date(2026, 10, 12))
    league = build_league()
    director = league.director
    director.set_password("liga-2026")
    director.save()
    director.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    for name in ("Alpha", "Beta"):
        ClubFactory(name=f"SK {name}", short_name=name)
    page = phone()
    login(page, "leiter", "liga-2026")

    page.goto(f"{live_server.url}/leagues/")
    page.locator(".league-season-new-link").click()
    assert page.locator("h1").inner_text() == "Neue Ligasaison"
    page.fill("input[name=name]", "Stadtliga 2027")
    page.fill("input[name=start_date]", "2027-09-01")
    page.fill("input[name=match_points_win]", "3")
    page.select_option("select[name=criterion_2]", "BW")
    page.select_option("select[name=criterion_3]", "BP")
    page.select_option("select[name=criterion_4]", "")
    _fits(page)
    _shot(page, "1-season-new")
    page.get_by_role("button", name="Saison anlegen").click()
    expect(page.locator(".alert").first).to_have_text("Die Saison Stadtliga 2027 ist angelegt.")
    season = LeagueSeason.objects.get(name="Stadtliga 2027")
    assert (season.match_points_win, season.standings_criteria) == (3, "MP,BW,BP")

    page.fill(".league-setup-division-new input[name=name]", "A-Gruppe")
    page.fill(".league-setup-division-new input[name=boards]", "4")
    page.get_by_role("button", name="Staffel anlegen").click()
    expect(page.locator(".alert").first).to_have_text("Die Staffel A-Gruppe ist angelegt.")
    for club in ("SK Alpha", "SK Beta"):
        page.select_option(".league-setup-team select[name=club]", label=club)
        page.get_by_role("button", name="Mannschaft melden").click()
        expect(page.locator(".alert").first).to_have_text(f"{club[3:]} 1 ist gemeldet.")
    page.select_option(".league-setup-captain select[name=team]", label="Alpha 1")
    page.fill(".league-setup-captain input[name=username]", "donaustadt1")
    page.get_by_role("button", name="Mannschaftsführer eintragen").click()
    # donaustadt1 is no member of SK Alpha: asked once, then appointed when the box is ticked.
    expect(page.locator(".league-setup-captain .invalid-feedback, .league-setup-captain .text-danger").first
           ).to_contain_text("donaustadt1 ist nicht Mitglied von SK Alpha (kein Vereinsmitglied).")
    page.check(".league-setup-captain input[name=other_club]")
    page.get_by_role("button", name="Mannschaftsführer eintragen").click()
    expect(page.locator(".alert").first).to_have_text("donaustadt1 ist Mannschaftsführer von Alpha 1.")
    _fits(page)
    _shot(page, "2-setup")

    page.get_by_role("link", name="Spielplan erstellen").click()
    page.fill("input[name=first_date]", "2027-09-12")
    page.fill("input[name=interval]", "7")
    page.get_by_role("button", name="Termine anzeigen").click()
    expect(page.locator(".league-schedule-preview li")).to_have_text(["Sonntag, 12.09.2027"])
    _fits(page)
    _shot(page, "3-schedule-preview")
    page.get_by_role("button", name="Spielplan erstellen").click()
    expect(page.locator(".alert").first).to_have_text("Der Spielplan ist erstellt: 1 Runden, 1 Kämpfe.")
    assert LeagueMatch.objects.filter(match__round__tournament__division__season=season).count() == 1

    club = league.teams["Donaustadt 1"].club
    page.goto(f"{live_server.url}/leagues/season/{league.season.pk}/roster/{club.pk}/")
    player = league.players["Donaustadt"][1]
    page.select_option("select[name=move-member]", str(player.pk))
    page.select_option("select[name=move-team]", str(league.teams["Donaustadt 2"].pk))
    page.fill("input[name=move-on]", "2026-10-10")
    page.get_by_role("button", name="Spieler versetzen").click()
    expect(page.locator(".alert").first).to_have_text(
        "Spieler2, Don spielt ab 10.10.2026 für Donaustadt 2, auf Rang 8."
    )
    assert RosterChange.objects.get().valid_from == datetime.date(2026, 10, 10)
    _fits(page)
    _shot(page, "4-roster-move")
