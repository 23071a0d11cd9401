"""A person logs in through the real form and opens a tournament page in Debian's Chromium."""

import pytest

from clubrating.tournaments.models import Tournament
from tests.demo_data import demo_restore

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_login_and_open_a_tournament(page, live_server, login, shoot, demo_snapshot):
    demo_restore(demo_snapshot)
    tournament = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    login(page, "member", "member")
    assert "member" in page.content()
    page.goto(f"{live_server.url}/tournaments/")
    page.get_by_role("link", name="Vereinsmeisterschaft 2026").first.click()
    page.wait_for_load_state()
    assert page.url.endswith(tournament.get_absolute_url())
    assert page.locator("h1").first.inner_text() == "Vereinsmeisterschaft 2026"
    shoot(page, "tournament-page")
