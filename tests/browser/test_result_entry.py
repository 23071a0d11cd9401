"""An official enters a round's results by keyboard only and corrects one (Debian's Chromium)."""

import datetime

import pytest
from django.conf import settings

from clubrating.tournaments.models import Game, ResultChange, TournamentKind
from ratings.models import PoolMember
from ratings.services import pool_create
from tests.conftest import role_user
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (white, rating), (black, rating) per board.
BOARDS = [
    (("Adler", 1830), ("Berger", 1980)), (("Ced", 1950), ("Dorn", 1820)), (("Egger", 1600), ("Fuchs", 1650)),
]


@pytest.fixture
def round_one(db):
    club = ClubFactory(name="Schachklub Heimat", is_home=True)
    role_user("offi", settings.OFFICIALS_GROUP)
    tournament = TournamentFactory(name="Herbstturnier", kind=TournamentKind.SWISS,
                                   start_date=datetime.date(2026, 9, 1))
    pool = pool_create(name="Standard", start_date=datetime.date(2026, 7, 1))
    rnd = RoundFactory(tournament=tournament, number=1)
    rank = 0
    for board, sides in enumerate(BOARDS, start=1):
        members = []
        for name, rating in sides:
            rank += 1
            member = MemberFactory(last_name=name, first_name="Max", club=club)
            TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, rating=rating)
            PoolMember.objects.create(pool=pool, member=member, rating=rating, games_count=10)
            members.append(member)
        GameFactory(round=rnd, board=board, white=members[0], black=members[1], result="")
    return tournament


FOCUSED = "document.activeElement.closest('form[data-board]')?.dataset.board ?? null"


def focused_board(page) -> str | None:
    """The board whose result control has the keyboard focus (waits for htmx to settle first)."""
    page.wait_for_function("() => document.querySelector('.htmx-settling, .htmx-swapping') === null")
    return page.evaluate(FOCUSED)


def save_by_keys(page, game, keys: str) -> None:
    """Type the result keys and Enter; return once htmx has swapped in the server's answer.

    The keys go to the board that has the focus, so first wait until the page's script has put it
    on this game's board (on a busy machine it runs a moment after the page has loaded). Without keys
    Enter confirms whatever field has the focus (the correction's reason)."""
    if keys:
        page.wait_for_function(f"() => ({FOCUSED}) === '{game.board}'")
        page.keyboard.type(keys)
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{game.pk}/" in r.url):
        page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('#board-{game.pk}.board-saved') !== null"
        " && document.querySelector('.htmx-request') === null")


def test_official_enters_a_round_by_keyboard_and_sees_the_rating_changes(page, live_server, login, round_one,
                                                                         shoot):
    games = list(Game.objects.filter(round__tournament=round_one).order_by("board"))
    login(page, "offi", "offi-pw-2026")
    page.goto(f"{live_server.url}/tournaments/{round_one.pk}/round/1/results/")
    assert "Ergebnisse Runde 1" in page.content()
    assert focused_board(page) == "1"  # the first open board has the focus, no mouse needed

    save_by_keys(page, games[0], "1")
    page.wait_for_function(f"() => ({FOCUSED}) === '2'")  # Enter saved board 1 and moved on
    save_by_keys(page, games[1], "=")
    page.wait_for_function(f"() => ({FOCUSED}) === '3'")
    # Tab and Shift+Tab move between boards (one stop per board).
    page.keyboard.press("Shift+Tab")
    assert focused_board(page) == "2"
    page.keyboard.press("Tab")
    assert focused_board(page) == "3"
    save_by_keys(page, games[2], "0")

    rows = [page.locator(f"#board-{g.pk}") for g in games]
    # docs/rules.md §1.1-1.3, F = (3400 - R)² / 100000 (10 games: no reduction), E from the polynomial:
    # 1830 beats 1980: 0.7003 x 24.649 = +17.26, -0.7003 x 20.164 = -14.12;
    # 1950 draws 1820: (0.5 - 0.6763) x 21.025 = -3.71, (0.5 - 0.3237) x 24.964 = +4.40;
    # 1600 loses to 1650: -0.4298 x 32.4 = -13.93, 0.4298 x 30.625 = +13.16.
    changes = [row.locator(".rating-change").inner_text().split("\n")[-1] for row in rows]
    assert changes == ["+17,3 / −14,1", "−3,7 / +4,4", "−13,9 / +13,2"]
    assert all("gespeichert" in row.inner_text() for row in rows)
    assert [(g.result, g.rated_result) for g in Game.objects.filter(round__tournament=round_one)
            .order_by("board")] == [("1-0", "1-0"), ("1/2", "1/2"), ("0-1", "0-1")]
    assert ResultChange.objects.count() == 3
    shoot(page, "result-entry")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone at the board side
    shoot(page, "result-entry-phone")


def test_a_correction_shows_in_the_games_history(page, live_server, login, round_one, shoot):
    game = Game.objects.filter(round__tournament=round_one).order_by("board").first()
    login(page, "offi", "offi-pw-2026")
    page.goto(f"{live_server.url}/tournaments/{round_one.pk}/round/1/results/")
    save_by_keys(page, game, "1")
    page.wait_for_function(f"() => ({FOCUSED}) === '2'")
    page.keyboard.press("Shift+Tab")  # back to board 1
    assert focused_board(page) == "1"
    # Changing an entered result asks first; the reason field gets the focus, Enter confirms.
    page.keyboard.type("0")
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{game.pk}/" in r.url):
        page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.activeElement.id === 'reason-{game.pk}'")
    page.keyboard.type("Scoresheet misread")
    save_by_keys(page, game, "")
    game.refresh_from_db()
    assert game.result == "0-1"
    assert game.history.order_by("-pk").first().reason == "Scoresheet misread"

    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    history = page.locator("#result-history tbody tr")
    assert history.count() == 2
    newest, oldest = history.nth(0).inner_text(), history.nth(1).inner_text()
    assert "offi" in newest and "1-0" in newest and "0-1" in newest and "Scoresheet misread" in newest
    assert "offi" in oldest and "noch nicht gespielt" in oldest
    shoot(page, "result-correction-history")


def test_quick_entry_by_board_number(page, live_server, login, round_one):
    """Swiss-Manager's way: the board number, then a result key saves that board at once."""
    games = list(Game.objects.filter(round__tournament=round_one).order_by("board"))
    login(page, "offi", "offi-pw-2026")
    page.goto(f"{live_server.url}/tournaments/{round_one.pk}/round/1/results/")
    page.click("#quick-entry")
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{games[2].pk}/" in r.url):
        page.keyboard.type("3r")
    page.wait_for_function(f"() => document.querySelector('#board-{games[2].pk}.board-saved') !== null")
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{games[0].pk}/" in r.url):
        page.keyboard.type("1w")
    page.wait_for_function(f"() => document.querySelector('#board-{games[0].pk}.board-saved') !== null")
    assert page.evaluate("document.activeElement.id") == "quick-entry"  # ready for the next board
    page.keyboard.type("9s")
    assert "Brett 9" in page.locator("#quick-entry-status").inner_text()
    assert [g.result for g in Game.objects.filter(round__tournament=round_one).order_by("board")] == [
        "1-0", "", "1/2"]


def test_quick_entry_says_what_became_of_the_save(page, live_server, login, round_one):
    """The status line follows the board's answer: saved, a question open, not the "saving…"
    it said while the request was under way."""
    games = list(Game.objects.filter(round__tournament=round_one).order_by("board"))
    login(page, "offi", "offi-pw-2026")
    page.goto(f"{live_server.url}/tournaments/{round_one.pk}/round/1/results/")
    status = page.locator("#quick-entry-status")
    page.click("#quick-entry")
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{games[1].pk}/" in r.url):
        page.keyboard.type("2r")
    page.wait_for_function(f"() => document.querySelector('#board-{games[1].pk}.board-saved') !== null")
    page.wait_for_function("() => document.querySelector('#quick-entry-status').textContent !== "
                           "'Brett 2: wird gespeichert …'")
    assert status.inner_text() == "Brett 2: gespeichert."
    # Board 2 holds ½-½: 1-0 asks first, and the status says so while the question is open.
    page.click("#quick-entry")
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{games[1].pk}/" in r.url):
        page.keyboard.type("2w")
    page.wait_for_function(f"() => document.querySelector('#board-{games[1].pk}.board-confirm') !== null")
    assert status.inner_text() == "Brett 2: noch nicht gespeichert; bitte die Frage beim Brett beantworten."
    assert Game.objects.get(pk=games[1].pk).result == "1/2"


# Two boards typed into the quick entry in one go, before the first answer is back: the keys reach
# the field one by one as a fast typist's would, without a pause for the server in between.
TYPED_ON = """() => {
  const quick = document.getElementById('quick-entry');
  quick.focus();
  for (const [digits, key] of [['1', 'w'], ['3', 'r']]) {
    quick.value = digits;
    quick.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true, cancelable: true}));
  }
}"""


def test_quick_entry_keeps_the_focus_while_answers_come_back(page, live_server, login, round_one):
    """A board typed while an earlier one's save is under way: both are saved, and the focus stays
    in the quick entry (the earlier answer does not move it to the next board, where the next keys
    would be lost); the status line speaks of the last board."""
    games = list(Game.objects.filter(round__tournament=round_one).order_by("board"))
    login(page, "offi", "offi-pw-2026")
    page.goto(f"{live_server.url}/tournaments/{round_one.pk}/round/1/results/")
    page.wait_for_load_state("load")
    page.evaluate(TYPED_ON)
    for game in (games[0], games[2]):
        page.wait_for_function(f"() => document.querySelector('#board-{game.pk}.board-saved') !== null")
    page.wait_for_function(
        "() => document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping') === null")
    assert page.evaluate("document.activeElement.id") == "quick-entry"
    assert page.locator("#quick-entry-status").inner_text() == "Brett 3: gespeichert."
    assert [g.result for g in Game.objects.filter(round__tournament=round_one).order_by("board")] == [
        "1-0", "", "1/2"]
