"""The rating officer closes a period in Chromium: early (with a reason, seeing which rounds of the
running Swiss move to the next period) and at its end; the lists index marks each list as it
stands. At 1366 and 390 px in German, the pages never scroll sideways.

Pool "Standard" from 1.1.2026, the first half-year closed; "today" is 25.11.2026, inside the open
period 1.7.–31.12.2026. The autumn Swiss has round 5 on 20.11. (played) and round 6 on 2.12.
(paired).
"""

import datetime
import subprocess

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Result
from ratings.services import game_record_result, period_close, period_reopen
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, set_today

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

D = datetime.date
WIDTHS = (1366, 390)


@pytest.fixture
def season(monkeypatch):
    set_today(monkeypatch, D(2026, 7, 2))
    club = Club.objects.create(name="Schachklub Donaustadt-Floridsdorf 1923", short_name="SK Donaustadt",
                               is_home=True)
    players = [MemberFactory(last_name=last, first_name=first, club=club) for last, first in (
        ("Egger-Hochleitner", "Maximilian Alexander"), ("Berger", "Anna"), ("Huber", "Bernd"),
        ("Moser", "Clara"), ("Wagner", "Dora"), ("Pichler", "Emil"))]
    pool = make_pool(start=D(2026, 1, 1))
    publish_start_list(pool, {m: 1500 + 60 * i for i, m in enumerate(players)})
    period_close(pool=pool)
    set_today(monkeypatch, D(2026, 11, 25))
    swiss = TournamentFactory(name="Herbstopen", start_date=D(2026, 9, 4), end_date=D(2026, 12, 18))
    five = RoundFactory(tournament=swiss, number=5, date=D(2026, 11, 20))
    six = RoundFactory(tournament=swiss, number=6, date=D(2026, 12, 2))
    for board, (white, black) in enumerate(zip(players[::2], players[1::2], strict=True), start=1):
        game = GameFactory(round=five, board=board, white=white, black=black, result=Result.NOT_PLAYED)
        game_record_result(game=game, result=Result.DRAW)
        GameFactory(round=six, board=board, white=black, black=white, result=Result.NOT_PLAYED)
    user = User.objects.create_user("referent", password="geheim-2026")
    user.groups.add(Group.objects.get_or_create(name=settings.RATING_OFFICERS_GROUP)[0])
    return pool


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def _look(page, shoot, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        _no_sideways_scroll(page)
        shoot(page, f"{name}-{width}")


def test_closing_early_then_at_the_end(page, live_server, login, shoot, season, monkeypatch):
    login(page, "referent", "geheim-2026")
    page.goto(f"{live_server.url}/ratings/officer/")
    page.get_by_role("link", name="Vorzeitig abschließen …").click()
    page.wait_for_load_state()
    box = page.locator("#close-early")
    assert "Die Periode läuft bis 31.12.2026." in box.inner_text()
    assert "Herbstopen" in page.locator("#close-moving").inner_text()
    assert "Runde 6 (02.12.2026), 3 Partien" in page.locator("#close-moving").inner_text()
    _look(page, shoot, "close-early")

    page.set_viewport_size({"width": 390, "height": 900})
    page.get_by_role("button", name="Vorzeitig abschließen und diese Liste veröffentlichen").click()
    page.wait_for_load_state()
    assert "Vorzeitiges Abschließen einer Periode braucht eine Begründung." in page.content()
    page.get_by_label("Vorzeitig abschließen").check()
    page.get_by_label("Begründung für das vorzeitige Abschließen").fill("Saisonpause über Weihnachten")
    page.get_by_role("button", name="Vorzeitig abschließen und diese Liste veröffentlichen").click()
    page.wait_for_load_state()
    assert "Vorzeitig abgeschlossen am 25.11.2026: Saisonpause über Weihnachten" in page.content()
    assert "Gültig ab 26.11.2026" in page.content()

    page.goto(f"{live_server.url}/ratings/officer/")
    # The next period starts tomorrow: no close button, the reason why instead.
    assert "hat noch nicht begonnen" in page.locator("table").first.inner_text()
    _look(page, shoot, "officer-after-early")

    set_today(monkeypatch, D(2026, 12, 31))  # the last day of the next period: closed as usual
    page.goto(f"{live_server.url}/ratings/officer/")
    page.get_by_role("link", name="Abschließen und veröffentlichen …").click()
    page.wait_for_load_state()
    assert page.locator("#close-early").count() == 0
    _look(page, shoot, "close-normal")
    page.get_by_role("button", name="Periode abschließen und diese Liste veröffentlichen").click()
    page.wait_for_load_state()

    page.goto(f"{live_server.url}/ratings/")
    items = page.locator("li", has_text="Liste vom")
    badge = items.filter(has_text="Liste vom 01.01.2027").locator(".badge")
    assert badge.inner_text() == "gültig ab 01.01.2027"
    assert items.filter(has_text="Liste vom 26.11.2026").locator(".badge").inner_text() == "gültig"
    assert "vorzeitig abgeschlossen: Saisonpause über Weihnachten" in items.filter(
        has_text="Liste vom 26.11.2026").inner_text()
    _look(page, shoot, "lists-index")


def test_a_withdrawn_lists_print_out_is_marked_on_every_printed_page(page, live_server, tmp_path,
                                                                     monkeypatch):
    """Chromium prints the print layout of a withdrawn list: the mark is on each page."""
    set_today(monkeypatch, D(2026, 7, 2))
    pool = make_pool(start=D(2026, 1, 1))
    publish_start_list(pool, {MemberFactory(): 1200 + 5 * i for i in range(120)})
    plist = period_close(pool=pool)
    period_reopen(period=plist.period, reason="Korrektur")
    page.goto(f"{live_server.url}/ratings/lists/{plist.pk}/print/")
    page.emulate_media(media="print")
    pdf = tmp_path / "print.pdf"
    page.pdf(path=str(pdf), format="A4")
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) >= 3
    assert all("ZURÜCKGEZOGEN" in "".join(p.split()) for p in pages)
