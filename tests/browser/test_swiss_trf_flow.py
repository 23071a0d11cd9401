"""A director pairs a Swiss in the browser, round by round, and the TRF files the site writes hold
up as an arbiter checks them: the file exported while round 2 is being played (paired, no results
yet) is paired by ``pair_trf`` exactly as the site paired round 2, and ``pair_trf --check`` on the
finished file finds every round as the rules give it. The officials' check page says the same.
In German, at 1366 px (the check page also at 390 px); screenshots with CLUBRATING_SCREENSHOTS=1.
"""

import datetime
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation
from playwright.sync_api import expect

from clubrating.interchange.formats.trf import parse_trf
from clubrating.tournaments.models import Game, Tournament
from clubrating.tournaments.pairing.trf_pairing import played_pairs
from tests.conftest import role_user
from tests.factories import ClubFactory, MemberFactory
from tests.interchange.test_trf_check import MET_BEFORE_ROUND_3, trf_text
from tests.ratings.factories import set_today

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Quick-entry keys per board: w White wins, r draw, s Black wins.
RESULTS = {1: "wsrw", 2: "swwr", 3: "wrsw"}


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state()


def _pair(page, base: str, number: int) -> None:
    _open(page, f"{base}/pair/")
    page.get_by_role("button", name=f"Runde {number} auslosen", exact=True).first.click()
    page.wait_for_load_state()


def _results(page, base: str, tournament: Tournament, number: int) -> None:
    _open(page, f"{base}/round/{number}/results/")
    games = list(Game.objects.filter(round__tournament=tournament, round__number=number).order_by("board"))
    for board, key in enumerate(RESULTS[number], start=1):
        page.locator("#quick-entry").press_sequentially(f"{board}{key}")
        saved = f"#board-{games[board - 1].pk}[data-saved]"
        page.wait_for_function(f"() => document.querySelector('{saved}') !== null")
        # The next board is typed once the page has taken in this one's answer (the status line
        # says so, after htmx settled the swap), as a director sees it before typing on.
        expect(page.locator("#quick-entry-status")).to_have_text(f"Brett {board}: gespeichert.")


def _export(page, base: str, path) -> str:
    _open(page, f"{base}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="TRF", exact=True).first.click()
    download.value.save_as(path)
    return path.read_text(encoding="utf-8")


def _pairs(path) -> list[tuple[int, int]]:
    out = StringIO()
    call_command("pair_trf", str(path), stdout=out)
    lines = out.getvalue().split("\n")
    return [tuple(int(x) for x in line.split()) for line in lines[1 : 1 + int(lines[0])]]


def test_a_swiss_paired_in_the_browser_holds_up_to_the_check(page, live_server, login, shoot, tmp_path,
                                                             monkeypatch):
    set_today(monkeypatch, datetime.date(2026, 12, 10))  # the three rounds (weekly from 20.11.) are past
    home = ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True,
                       public_tournaments=True)
    for i, (first, last) in enumerate([("Anna", "Berger"), ("Bernd", "Huber"), ("Clara", "Moser"),
                                       ("Dora", "Wagner"), ("Emil", "Pichler"), ("Franz", "Gruber"),
                                       ("Gerda", "Steiner"), ("Hans", "Bauer")]):
        MemberFactory(first_name=first, last_name=last, club=home, fide_rating=2150 - 90 * i)
    role_user("leiterin", settings.OFFICIALS_GROUP, password="Turnier-Leiterin-2026")
    page.set_viewport_size({"width": 1366, "height": 900})
    login(page, "leiterin", "Turnier-Leiterin-2026")

    _open(page, f"{live_server.url}/tournaments/new/")
    page.fill("#id_name", "Herbstopen")
    page.select_option("#id_kind", "swiss")
    page.fill("#id_start_date", "2026-11-20")
    page.fill("#id_rounds_count", "3")
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Herbstopen")
    base = f"{live_server.url}/tournaments/{tournament.pk}"
    _open(page, f"{base}/players/register/")
    for box in page.locator("#register-form input[name=members]").all():
        box.check()
    page.get_by_role("button", name="Ausgewählte Mitglieder anmelden", exact=True).click()
    page.wait_for_load_state()
    assert tournament.players.count() == 8

    _pair(page, base, 1)
    _results(page, base, tournament, 1)
    _pair(page, base, 2)
    # Round 2 is paired and being played: no result yet.
    running = _export(page, base, tmp_path / "running.trf")
    _results(page, base, tournament, 2)
    _pair(page, base, 3)
    _results(page, base, tournament, 3)
    finished = _export(page, base, tmp_path / "finished.trf")

    # The running round is written as the round to pair: pair_trf pairs it as the site did.
    ranks = {p.name: p.start_rank for p in parse_trf(finished).players}
    round_2 = Game.objects.filter(round__tournament=tournament, round__number=2).order_by("board")
    site_round_2 = [(ranks[g.white.full_name], ranks[g.black.full_name]) for g in round_2]
    assert len(site_round_2) == 4
    assert [len(p.results) for p in parse_trf(running).players] == [1] * 8  # round 2 is to be paired
    assert _pairs(tmp_path / "running.trf") == site_round_2
    assert played_pairs(parse_trf(finished), 2) == sorted(site_round_2)

    out = StringIO()
    with translation.override("en"):
        call_command("pair_trf", str(tmp_path / "finished.trf"), "--check", stdout=out)
    assert out.getvalue() == (
        "3 of 3 rounds paired as the rules give (FIDE Dutch system from 1 February 2026).\n")

    # The officials' check page says the same, in German, on a desktop and a phone.
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        _open(page, f"{live_server.url}/")
        page.get_by_role("link", name="Paarungen einer TRF-Datei prüfen").click()
        page.wait_for_load_state()
        page.set_input_files("#id_file", str(tmp_path / "finished.trf"))
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shoot(page, f"trf-check-form-{width}")
        page.get_by_role("button", name="Paarungen prüfen").click()
        page.wait_for_load_state()
        assert page.locator("#job-message").inner_text() == (
            "3 von 3 Runden so gepaart, wie es die Regeln ergeben "
            "(FIDE-Schweizer System (holländisch) ab 1. Februar 2026).")
        badges = page.locator("#trf-check-rounds .badge").all_inner_texts()
        assert badges == ["identisch", "identisch", "identisch"]
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shoot(page, f"trf-check-report-{width}")

        # A file whose round 3 pairs two players who met in round 1: both pairings and the reason.
        _open(page, f"{live_server.url}/exchange/trf-check/")
        page.set_input_files("#id_file", files=[{"name": "fehler.trf", "mimeType": "text/plain",
                                                  "buffer": trf_text(MET_BEFORE_ROUND_3).encode()}])
        page.get_by_role("button", name="Paarungen prüfen").click()
        page.wait_for_load_state()
        assert page.locator("#check-round-3 .reason").inner_text() == (
            "Absolutes Kriterium C.1 verletzt: Spieler 4 und 1 haben bereits in Runde 1 gegeneinander "
            "gespielt.")
        assert page.locator("#check-round-3 tr.table-warning").count() == 6
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shoot(page, f"trf-check-differs-{width}")
