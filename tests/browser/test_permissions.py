"""Unauthorised users are refused result entry in the browser: login page or 403."""

import datetime

import pytest
from django.contrib.auth.models import User

from tests.factories import ClubFactory, GameFactory, RoundFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def round_url(db, live_server):
    ClubFactory(name="Schachklub Heimat", is_home=True, public_tournaments=False)
    User.objects.create_user("member", password="member-pw-2026")
    game = GameFactory(round=RoundFactory(tournament=TournamentFactory(start_date=datetime.date(2026, 9, 1))),
                       result="")
    return f"{live_server.url}/tournaments/{game.round.tournament_id}/round/1/results/", game


def test_a_visitor_is_sent_to_the_login_page(page, round_url, shoot):
    url, _game = round_url
    page.goto(url)
    assert "/accounts/login/?next=" in page.url
    assert page.locator("input[name=username]").is_visible()
    shoot(page, "refused-visitor")


def test_a_member_without_the_official_role_gets_403(page, live_server, login, round_url, shoot):
    url, game = round_url
    login(page, "member", "member-pw-2026")
    response = page.goto(url)
    assert response.status == 403
    assert "form[data-board]" not in page.content() and page.locator("form[data-board]").count() == 0
    # A forged save from the member's session is refused too and changes nothing.
    status, body = page.evaluate(
        """async (url) => {
            const token = document.cookie.split('; ').find(c => c.startsWith('csrftoken='))
                ?.split('=')[1] ?? '';
            const r = await fetch(url, {method: 'POST', headers: {'X-CSRFToken': token, 'HX-Request': 'true'},
                                        body: new URLSearchParams({result: '1-0', seen: ''})});
            return [r.status, await r.text()];
        }""",
        f"{url}{game.pk}/",
    )
    assert status == 403
    assert "CSRF verification failed" not in body  # refused by the permission check, not by a missing token
    assert "Access denied" in body or "Zugriff verweigert" in body
    game.refresh_from_db()
    assert game.result == ""
    shoot(page, "refused-member")
