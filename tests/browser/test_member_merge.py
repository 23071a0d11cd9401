"""Merging a duplicate with games and ratings in Chromium, and two empty lists of a fresh site, in
German at 1366 and 390 px; screenshots with CLUBRATING_SCREENSHOTS=1."""

import pytest
from django.conf import settings

from clubrating.clubs.models import Member
from ratings.models import RatingRecord
from tests.clubs.test_merge import _scenario
from tests.conftest import role_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", [1366, 390])
def test_a_rating_officer_merges_a_duplicate_with_games(page, live_server, login, shoot, width):
    page.set_viewport_size({"width": width, "height": 900})
    role_user("referent", settings.RATING_OFFICERS_GROUP, password="Referent-2026")
    pool, keep, duplicate = _scenario("merged")
    login(page, "referent", "Referent-2026")

    page.goto(f"{live_server.url}/members/{keep.pk}/edit/")
    twins = page.locator("#member-twins").locator("xpath=..")
    twins.get_by_role("link", name="In dieses Mitglied zusammenführen …").click()
    page.wait_for_load_state()
    moves = page.locator("#merge-move-list").inner_text()
    assert "Partien: 2" in moves and "Wertungseinträge: 4" in moves
    _no_sideways_scroll(page)
    shoot(page, f"merge-1-preview-{width}")

    page.get_by_role("button", name="Jetzt zusammenführen").click()
    page.wait_for_load_state()
    text = page.content()
    assert "Das Duplikat ist mit Weber, Karl zusammengeführt." in text
    assert "werden im Hintergrund ab dem Zeitraum" in text
    assert "merged the duplicate" not in text
    history = page.locator("#member-changes").inner_text()
    assert f"Duplikat zusammengeführt, Nr. ({duplicate.pk} → —)" in history
    _no_sideways_scroll(page)
    shoot(page, f"merge-2-done-{width}")
    assert not Member.objects.filter(pk=duplicate.pk).exists()
    assert RatingRecord.objects.filter(member=keep, pool=pool).count() == 3

    page.get_by_role("link", name="Fortschritt").click()
    page.wait_for_load_state()
    assert "„Standard“" in page.locator("h1").inner_text()
    shoot(page, f"merge-3-job-{width}")


@pytest.mark.parametrize("width", [1366, 390])
def test_empty_lists_of_a_fresh_site(page, live_server, login, shoot, width):
    page.set_viewport_size({"width": width, "height": 900})
    role_user("offi", settings.OFFICIALS_GROUP, password="Offi-2026-x")
    login(page, "offi", "Offi-2026-x")

    page.goto(f"{live_server.url}/members/")
    empty = page.locator("[data-empty-list]")
    assert empty.inner_text() == "Noch keine Mitglieder. Mitglied anlegen · CSV importieren"
    _no_sideways_scroll(page)
    shoot(page, f"empty-members-{width}")
    empty.get_by_role("link", name="Mitglied anlegen").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Neues Mitglied"

    page.goto(f"{live_server.url}/tournaments/")
    assert page.locator("[data-empty-list]").inner_text() == "Noch keine Turniere. Turnier anlegen"
    _no_sideways_scroll(page)
    shoot(page, f"empty-tournaments-{width}")
