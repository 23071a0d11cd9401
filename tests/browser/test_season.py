"""The season's key steps in Chromium: pair a round with its date, enter results by keyboard, close
the half-year with the preview's warnings, reopen it, and find the withdrawn list marked."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User

from clubrating.tournaments import services
from clubrating.tournaments.models import Game, Round, TournamentKind
from ratings.models import PeriodState, PublishedList, RatingPeriod, RatingRecord
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_result_entry import FOCUSED, save_by_keys
from tests.factories import ClubFactory, MemberFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

D = datetime.date
PASSWORD = "saison-pw-2026"
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def season(db):
    club = ClubFactory(name="Schachklub Heimat", is_home=True)
    user = User.objects.create_user("leitung", password=PASSWORD)
    for name in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP):
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    pool = make_pool(name="Standard", start=D(2026, 1, 1))
    names = ("Adler", "Berger", "Czech", "Dorn")
    members = [MemberFactory(last_name=name, first_name="Max", club=club) for name in names]
    publish_start_list(pool, {m: (1900 - 50 * i, 20) for i, m in enumerate(members)})
    tournament = TournamentFactory(name="Frühsommer", kind=TournamentKind.ROUND_ROBIN,
                                   start_date=D(2026, 6, 5), round_interval_days=7, tiebreaks="DE,WIN,SB,KS")
    for member in members:
        services.player_register(tournament=tournament, member=member, rating=1900)
    return tournament, pool


def shoot_both(page, shoot, name):
    if not SCREENSHOTS:
        return
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        shoot(page, f"season-{name}-{size}")
    page.set_viewport_size(SIZES["desktop"])


def pair_schedule(page, base, tournament, dates: dict[int, str]) -> None:
    """Pair the round robin's whole schedule on its page, with the rounds' dates typed in."""
    page.goto(f"{base}/tournaments/{tournament.pk}/pair/")
    for number, date in dates.items():
        page.fill(f"#schedule-form input[name=pair-round-{number}]", date)
    page.locator("#schedule-form [type=submit]").click()
    page.wait_for_load_state()


def test_a_season_in_the_browser(page, live_server, login, season, shoot):
    tournament, pool = season
    base = live_server.url
    page.set_viewport_size(SIZES["desktop"])
    login(page, "leitung", PASSWORD)

    # The whole schedule, round 1 on 12.6. (not the schedule's 5.6.), round 2 on 26.6., round 3
    # after the half-year: the round page shows the date and can move it.
    pair_schedule(page, base, tournament, {1: "12.06.2026", 2: "26.06.2026", 3: "03.07.2026"})
    assert Round.objects.get(tournament=tournament, number=1).date == D(2026, 6, 12)
    page.goto(f"{base}/tournaments/{tournament.pk}/round/1/")
    assert "12.06.2026" in page.locator("h2").first.inner_text()
    assert page.locator("#round-date-form input[name=date]").input_value() == "12.06.2026"
    shoot_both(page, shoot, "round")

    page.goto(f"{base}/tournaments/{tournament.pk}/round/1/results/")
    games = list(Game.objects.filter(round__number=1, round__tournament=tournament).order_by("board"))
    save_by_keys(page, games[0], "1")
    page.wait_for_function(f"() => ({FOCUSED}) === '2'")
    save_by_keys(page, games[1], "=")
    assert RatingRecord.objects.filter(game__in=games, played_on=D(2026, 6, 12)).count() == 4

    # Round 2 dated 26.6.: one board keeps no result.
    page.goto(f"{base}/tournaments/{tournament.pk}/round/2/results/")
    first = Game.objects.get(round__number=2, round__tournament=tournament, board=1)
    save_by_keys(page, first, "0")
    assert "3 / 3" in page.goto(f"{base}/tournaments/{tournament.pk}/").text()  # all paired

    # Closing the half-year: the preview says what stays open, closing still works.
    period = RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)
    page.goto(f"{base}/ratings/officer/periods/{period.pk}/close/")
    warnings = page.locator("#close-warnings")
    assert "1 ausgeloste Partie in dieser Periode hat kein Ergebnis" in warnings.inner_text()
    assert "Frühsommer: 1 Partie ohne Ergebnis (Runde 2)" in warnings.inner_text()
    shoot_both(page, shoot, "close-preview")
    page.locator("form.mb-3 [type=submit]").click()
    page.wait_for_load_state()
    period.refresh_from_db()
    assert period.state == PeriodState.CLOSED
    plist = PublishedList.objects.get(period=period)

    # Reopening with a reason: the list is marked withdrawn on the index and on its page.
    page.goto(f"{base}/ratings/officer/periods/{period.pk}/reopen/")
    page.fill("textarea[name=reason], input[name=reason]", "Ergebnis Runde 2 nachtragen")
    page.locator("form [type=submit].btn-danger").click()
    page.wait_for_load_state()
    page.goto(f"{base}/ratings/")
    withdrawn = page.locator("li.list-withdrawn")
    assert withdrawn.count() == 1
    assert "zurückgezogen (Periode wieder geöffnet)" in withdrawn.inner_text()
    shoot_both(page, shoot, "lists-withdrawn")
    page.goto(f"{base}/ratings/lists/{plist.pk}/")
    assert "Zurückgezogen: Die Periode wurde wieder geöffnet" in page.locator("#list-withdrawn").inner_text()
    shoot_both(page, shoot, "list-withdrawn")
