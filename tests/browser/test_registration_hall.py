"""A player registers and checks in on his phone; the hall screen on a 1920 px projector."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from clubrating.interchange.formats.limits import latest_date
from clubrating.tournaments import checkin, entries
from clubrating.tournaments.models import EntryState, Game, Result, TournamentKind, TournamentPlayer
from clubrating.tournaments.services import player_register, round_pair
from ratings.services import game_record_result
from tests.factories import ClubFactory, MemberFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Adler", "Berger", "Czech", "Dorn", "Egger", "Fuchs", "Gruber", "Hofer", "Igler", "Jäger", "Koller",
         "Lang", "Moser", "Nagl", "Ortner", "Pichler", "Quast", "Riedl", "Sommer", "Thaler", "Unger", "Vogel",
         "Wagner", "Zach"]


@pytest.fixture
def open_swiss():
    club = ClubFactory(name="Schachklub Donaustadt", short_name="SK Donaustadt", is_home=True,
                       public_tournaments=True, public_ratings=True)
    tournament = TournamentFactory(name="Winter-Open", kind=TournamentKind.SWISS, rounds_count=5,
                                   start_date=datetime.date(2026, 12, 12), place="Wien")
    now = timezone.now()
    entries.entry_window_set(tournament=tournament, opens_at=now - datetime.timedelta(days=2),
                             closes_at=now + datetime.timedelta(days=10), max_players=40,
                             members_may_enter=True, guests_may_enter=True, check_in=True)
    for index, name in enumerate(NAMES):
        player = player_register(tournament=tournament, member=MemberFactory(
            last_name=name, first_name="Max", club=club), rating=2100 - 25 * index)
        checkin.player_check_in(player=player)
    eva = MemberFactory(last_name="Huber", first_name="Eva", club=club, email="eva@example.at",
                        user=User.objects.create_user("eva", password="eva-pw"))
    return tournament, eva


def console_of(page) -> list[str]:
    """Console messages and page errors (a policy violation or a script error shows here)."""
    messages = []
    page.on("console", lambda message: messages.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    return messages


def no_sideways_scrolling(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_member_registers_and_checks_in_on_his_phone(page, live_server, login, shoot, open_swiss):
    tournament, eva = open_swiss
    page.set_viewport_size({"width": 390, "height": 844})
    console = console_of(page)
    login(page, "eva", "eva-pw")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    button = page.locator("#enter-button")
    assert button.inner_text() == "Anmelden"
    box = button.bounding_box()
    assert box["width"] > 300 and box["height"] >= 44  # one tap with the thumb: the box's full width
    shoot(page, "registration-phone-1-open")
    button.click()
    page.wait_for_load_state()
    assert page.locator(".alert-success").inner_text().strip() == (
        "Sie haben sich angemeldet; der Funktionär bestätigt Ihre Anmeldung.")
    assert page.locator("#entry-state").inner_text() == "Ihre Anmeldung: wartet auf Bestätigung"
    assert no_sideways_scrolling(page)
    shoot(page, "registration-phone-2-pending")

    # The official confirms (his page is tested on its own); the player checks in on his phone.
    entry = tournament.entries.get(member=eva)
    entries.entry_decide(entry=entry, state=EntryState.CONFIRMED, by=None, rating=1650)
    page.reload()
    assert page.locator("#entry-state").inner_text() == "Sie stehen in der Startliste (Startnummer 19)."
    check_in = page.locator("#check-in-button")
    assert check_in.inner_text() == "Anwesend melden: Ich bin da"
    assert check_in.bounding_box()["width"] > 300
    shoot(page, "registration-phone-3-check-in")
    check_in.click()
    page.wait_for_load_state()
    assert page.locator(".alert-success").inner_text().strip() == "Sie sind für Runde 1 anwesend gemeldet."
    assert page.locator("#check-in-state").inner_text().startswith("Für Runde 1 anwesend gemeldet um ")
    assert TournamentPlayer.objects.get(tournament=tournament, member=eva).checked_in_at is not None
    assert no_sideways_scrolling(page)
    shoot(page, "registration-phone-4-checked-in")
    assert console == []


def test_hall_screen_on_a_projector(page, live_server, shoot, open_swiss):
    tournament, _eva = open_swiss
    rnd = round_pair(tournament=tournament)
    for game in Game.objects.filter(round=rnd).order_by("board")[:7]:
        game_record_result(game=game, result=Result.WHITE_WINS, user=None)
    page.set_viewport_size({"width": 1920, "height": 1080})
    console = console_of(page)
    page.clock.install()  # the page turns and polls on this clock, run forward below
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/hall/")
    page.wait_for_function("() => document.body.classList.contains('paging')")
    assert page.locator("h1").inner_text() == "Winter-Open"
    # Large type: about 30 px on a 1920 px screen, readable from the back of the room.
    size = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert 28 <= size <= 32
    # One screenful at a time, no scrolling: the pairings first (12 boards fit on one page).
    assert page.locator(".hall-section.shown h2").inner_text() == "Paarungen Runde 1"
    assert page.locator(".hall-section.shown tbody tr:not(.off)").count() == 12
    assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight")
    assert page.locator(".hall-qr svg").is_visible()
    assert page.locator(".hall-qr svg").bounding_box()["width"] >= 100  # about 10 cm on a 2 m wide image
    shoot(page, "hall-1920-pairings", full_page=False)
    # Then the standings, on as many pages as the screen needs (24 players: two).
    assert page.locator("#hall-page").inner_text() == "1 / 3"
    page.keyboard.press("ArrowRight")
    assert page.locator(".hall-section.shown h2").inner_text() == "Rangliste nach Runde 1"
    first = page.locator(".hall-section.shown tbody tr:not(.off)").count()
    assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight")
    shoot(page, "hall-1920-standings-1", full_page=False)
    page.keyboard.press("ArrowRight")
    assert page.locator("#hall-page").inner_text() == "3 / 3"
    assert first + page.locator(".hall-section.shown tbody tr:not(.off)").count() == 24
    shoot(page, "hall-1920-standings-2", full_page=False)
    # On its own: after 12 s the next page (back to the pairings); a result entered meanwhile
    # reaches the screen with the next poll (every 15 s).
    page.clock.run_for(12_000)
    assert page.locator("#hall-page").inner_text() == "1 / 3"
    board_8 = Game.objects.get(round=rnd, board=8)
    game_record_result(game=board_8, result=Result.DRAW, user=None)
    page.clock.run_for(4_000)
    page.wait_for_function("() => document.querySelectorAll('.hall-pairings td.res:not(.open)').length === 8")
    assert page.locator(".hall-pairings tbody tr").nth(7).locator("td.res").inner_text() == "½-½"
    assert console == []


def test_official_decides_and_ticks_the_check_in_list_on_a_phone(page, live_server, login, shoot, open_swiss):
    from django.conf import settings
    from django.contrib.auth.models import Group

    tournament, eva = open_swiss
    official = User.objects.create_user("official", password="official-pw")
    official.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    entries.entry_submit_member(tournament=tournament, member=eva)
    entries.entry_submit_guest(tournament=tournament, last_name="Nagy", first_name="Péter",
                               club_name="Győri Sakk Klub", birth_year=1994, fide_id=738123)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, "official", "official-pw")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/entries/")
    assert page.locator("#open-entries li").count() == 2
    assert no_sideways_scrolling(page)
    shoot(page, "registration-official-phone-entries")
    page.locator("#open-entries li", has_text="Nagy, Péter").get_by_role("button", name="Bestätigen").click()
    page.wait_for_load_state()
    assert page.locator(".alert-success").inner_text().strip() == "Nagy, Péter steht in der Startliste."
    assert page.locator("#open-entries li").count() == 1
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/check-in/")
    assert page.locator("#checked-count").inner_text() == "24 / 25"
    page.locator(".check-in-list li", has_text="Nagy, Péter").get_by_role("button", name="Da").click()
    page.wait_for_load_state()
    assert page.locator("#checked-count").inner_text() == "25 / 25"
    assert no_sideways_scrolling(page)
    shoot(page, "registration-official-phone-check-in")


def test_guest_registers_on_his_phone(page, live_server, shoot, open_swiss):
    tournament, _eva = open_swiss
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Kein Mitglied? Als Gast anmelden").click()
    page.wait_for_load_state()
    page.fill("input[name=last_name]", "Nagy")
    page.fill("input[name=birth_year]", "94")
    page.get_by_role("button", name="Anmelden").click()
    page.wait_for_load_state()
    assert page.locator("#error_1_id_birth_year, .invalid-feedback").first.inner_text() == (
        f"Geburtsjahr 94 liegt nicht zwischen 1850 und {latest_date().year}.")
    assert not tournament.entries.exists()
    assert no_sideways_scrolling(page)
    shoot(page, "registration-guest-phone-error")
    page.fill("input[name=birth_year]", "1994")
    page.fill("input[name=first_name]", "Péter")
    page.get_by_role("button", name="Anmelden").click()
    page.wait_for_load_state()
    assert page.locator(".alert-success").inner_text().strip() == (
        "Danke, Nagy, Péter: Ihre Anmeldung ist eingelangt; der Funktionär bestätigt sie.")
    assert tournament.entries.get().full_name == "Nagy, Péter"
    shoot(page, "registration-guest-phone-done")
