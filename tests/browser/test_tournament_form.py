"""The new-tournament form in Chromium: choosing the system shows only what it uses."""

import pytest

from clubrating.tournaments.models import Tournament
from tests.factories import ClubFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def official(official):
    """The shared official (tests/conftest.py), with the home club present."""
    ClubFactory(name="Schachklub Heimat", is_home=True)
    return official


def visible_presets(page) -> list[str]:
    return page.evaluate("() => Array.from(document.querySelectorAll('#id_tiebreak_preset option'))"
                         ".filter(o => !o.hidden).map(o => o.value)")


@pytest.mark.parametrize("width", [1366, 390])
def test_choosing_round_robin_hides_the_swiss_fields(page, live_server, login, official, shoot, width):
    page.set_viewport_size({"width": width, "height": 900})
    login(page, "offi", "offi-pw-2026")
    page.goto(f"{live_server.url}/tournaments/new/")
    page.select_option("#id_kind", "swiss")
    assert page.is_visible("#id_rounds_count") and page.is_visible("#id_initial_colour")
    assert page.is_visible("#id_acceleration")
    assert not page.is_visible("#id_double_round_robin")
    assert visible_presets(page) == ["auto", "swiss-bh", "swiss-fide", "custom"]
    assert not page.is_visible("#id_tiebreaks")  # the typed codes belong to "own list"
    page.select_option("#id_tiebreak_preset", "custom")
    assert page.is_visible("#id_tiebreaks")
    page.select_option("#id_tiebreak_preset", "swiss-fide")
    assert not page.is_visible("#id_tiebreaks")
    shoot(page, f"tournament-form-swiss-{width}")

    page.select_option("#id_kind", "round_robin")
    assert not page.is_visible("#id_rounds_count") and not page.is_visible("#id_initial_colour")
    assert not page.is_visible("#id_acceleration")
    assert page.is_visible("#id_double_round_robin")
    assert visible_presets(page) == ["auto", "rr-fide", "rr-sb", "custom"]
    assert page.input_value("#id_tiebreak_preset") == "auto"  # the Swiss set chosen before is gone
    shoot(page, f"tournament-form-round-robin-{width}")

    page.fill("#id_name", "Klubmeisterschaft")
    page.fill("#id_start_date", "2026-12-04")
    page.select_option("#id_tiebreak_preset", "rr-sb")
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
    tournament = Tournament.objects.get(name="Klubmeisterschaft")
    stored = (tournament.kind, tournament.rounds_count, tournament.tiebreaks)
    assert stored == ("round_robin", 1, "SB,DE,WIN,KS")
