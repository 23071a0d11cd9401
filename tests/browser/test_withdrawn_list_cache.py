"""In Chromium, in German at 1366 and 390 px: a visitor who saw a published rating list before its
period was reopened is shown the list as withdrawn when he comes back to it, and the list is sent
to be revalidated on every use; and the public guest entry form refuses what no import could read
back, in German."""

import datetime

import pytest
from django.utils import timezone

from clubrating.clubs.models import Club
from clubrating.tournaments import entries
from clubrating.tournaments.models import Result, TournamentKind
from ratings.services import game_record_result, period_close, period_reopen
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = (1366, 390)
WITHDRAWN = "Zurückgezogen: Die Periode wurde wieder geöffnet; diese Liste ist nicht gültig."


@pytest.fixture
def public_club(db):
    return Club.objects.create(name="Schachklub Donaustadt", short_name="SK Donaustadt", is_home=True,
                               public_ratings=True, public_tournaments=True)


def _fits(page, shoot, name):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), (name, width)
        shoot(page, f"{name}-{width}")


def test_a_kept_list_is_shown_withdrawn_after_the_reopening(page, live_server, shoot, public_club):
    anna = MemberFactory(first_name="Anna", last_name="Berger", club=public_club)
    bernd = MemberFactory(first_name="Bernd", last_name="Huber", club=public_club)
    pool = make_pool(name="Standard", start=datetime.date(2026, 1, 1))
    publish_start_list(pool, {anna: (1830, 10), bernd: (1980, 50)})
    spring = TournamentFactory(start_date=datetime.date(2026, 3, 1))
    game = GameFactory(round=RoundFactory(tournament=spring, number=1), board=1, white=anna, black=bernd,
                       result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.DRAW)
    plist = period_close(pool=pool)
    url = f"{live_server.url}/ratings/lists/{plist.pk}/"
    first = page.goto(url)
    assert WITHDRAWN not in page.content()
    # Kept, but never shown again without asking (the conditional requests themselves are
    # replayed in tests/ratings/views/test_list_revalidation.py).
    assert first.headers["cache-control"] == "private, no-cache"
    page.goto(f"{live_server.url}/")  # away, then back to the kept page as a visitor does
    period_reopen(period=plist.period, reason="Korrektur einer Partie")
    page.goto(url)
    assert page.locator("#list-withdrawn").inner_text() == WITHDRAWN
    page.go_back()
    page.go_forward()
    assert page.locator("#list-withdrawn").inner_text() == WITHDRAWN
    _fits(page, shoot, "withdrawn-list")


def test_the_public_guest_form_refuses_implausible_values_in_german(page, live_server, shoot, public_club):
    tournament = TournamentFactory(name="Adventopen", kind=TournamentKind.SWISS, rounds_count=5,
                                   start_date=datetime.date(2026, 12, 5))
    now = timezone.now()
    entries.entry_window_set(tournament=tournament, opens_at=now - datetime.timedelta(days=1),
                             closes_at=now + datetime.timedelta(days=5), max_players=30,
                             members_may_enter=True, guests_may_enter=True, check_in=False)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/enter/guest/")
    page.fill("input[name=last_name]", "Huber")
    page.fill("input[name=birth_year]", "2100")
    page.fill("input[name=fide_id]", "1234567890123456")
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
    html = page.content()
    assert f"Geburtsjahr 2100 liegt nicht zwischen 1850 und {datetime.date.today().year + 1}." in html
    assert "FIDE-ID 1234567890123456 liegt nicht zwischen 1 und 99999999999." in html
    _fits(page, shoot, "guest-entry-refused")
