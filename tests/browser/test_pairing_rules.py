"""The tournament page names its pairing rules, on a desktop and a phone, in German."""

import datetime

import pytest

from tests.factories import TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_swiss_page_names_the_dutch_system_of_2026(page, live_server, shoot, width):
    t = TournamentFactory(name="Frühjahrsopen", start_date=datetime.date(2026, 3, 1))
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    rules = page.locator("#pairing-rules")
    assert rules.inner_text() == "FIDE-Schweizer System (holländisch) ab 1. Februar 2026"
    assert rules.is_visible()
    shoot(page, f"pairing-rules-{width}")


@pytest.mark.parametrize("width", [1366, 390])
def test_swiss_page_names_its_baku_acceleration(page, live_server, shoot, width):
    t = TournamentFactory(name="Großes Open", start_date=datetime.date(2026, 3, 1), acceleration="baku")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    shown = page.locator("#acceleration")
    assert shown.inner_text() == "Baku-Beschleunigung (FIDE C.04.5.1)"
    assert shown.is_visible()
    shoot(page, f"acceleration-{width}")
