"""The tournament pages at 1366 px and on a phone (390 px), in German and English (Debian's Chromium).

Each page must fit the screen: no sideways scrolling of the page itself
(document.scrollingElement.scrollWidth <= innerWidth); CLUBRATING_SCREENSHOTS=1 screenshots each
into test-artifacts/. The tables keep chess-results'
columns, and ratings are never grouped ("2107", not "2.107").
"""

import datetime
import re

import pytest
from django.conf import settings

from clubrating.tournaments.models import Result, TournamentKind
from ratings.models import PoolMember
from ratings.services import game_record_result, pool_create
from tests.conftest import role_user
from tests.factories import (
    ByeFactory,
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Baumgartner-Hofstätter", "Maximilian", 2107), ("Oberhuber", "Katharina", 1984),
    ("Gruber", "Anna", 1876),
    ("Gruber", "Anna", 1702), ("Wagner", "Leopold", 1655), ("Steinbichler", "Johanna", 1590),
    ("Huber", "Florian", 1433), ("Bauer", "Theresa", 1208), ("Fuchs", "Elias", 1105),
]
WIDTHS = [1366, 390]


@pytest.fixture
def swiss(db):
    club = ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True,
                       public_tournaments=True)
    other = ClubFactory(name="Sportunion Raiffeisen Schachklub Steyr")
    role_user("offi", settings.OFFICIALS_GROUP)
    tournament = TournamentFactory(name="Herbstturnier 2026", kind=TournamentKind.SWISS, rounds_count=5,
                                   start_date=datetime.date(2026, 9, 1), tiebreaks="BH/C1,BH,SB,WIN")
    pool = pool_create(name="Standard", start_date=datetime.date(2026, 7, 1))
    members = []
    for rank, (last, first, rating) in enumerate(PLAYERS, start=1):
        member = MemberFactory(last_name=last, first_name=first, club=club if rank % 2 else other,
                               birth_year=1960 + rank * 5)
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, rating=rating)
        PoolMember.objects.create(pool=pool, member=member, rating=rating, games_count=40)
        members.append(member)
    first = RoundFactory(tournament=tournament, number=1)
    second = RoundFactory(tournament=tournament, number=2)
    pairs_one = [(0, 4), (5, 1), (2, 6), (7, 3)]
    pairs_two = [(1, 0), (3, 2), (4, 5), (6, 8)]
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_WINS]
    for board, ((white, black), result) in enumerate(zip(pairs_one, results), start=1):
        game = GameFactory(round=first, board=board, white=members[white], black=members[black], result="")
        game_record_result(game=game, result=result, user=None)
    ByeFactory(round=first, member=members[8])
    for board, (white, black) in enumerate(pairs_two, start=1):
        game = GameFactory(round=second, board=board, white=members[white], black=members[black], result="")
        if board <= 2:
            game_record_result(game=game, result=Result.DRAW, user=None)
    ByeFactory(round=second, member=members[7])
    return tournament


def pages(tournament) -> list[tuple[str, str]]:
    base = f"/tournaments/{tournament.pk}"
    return [
        ("overview", f"{base}/"), ("players", f"{base}/players/"),
        ("players-alpha", f"{base}/players/?order=name"), ("players-rating", f"{base}/players/?order=rating"),
        ("pairings", f"{base}/pairings/"), ("round", f"{base}/round/2/"), ("standings", f"{base}/standings/"),
        ("crosstable", f"{base}/crosstable/"),
        ("evaluation", f"{base}/evaluation/"), ("results", f"{base}/round/2/results/"),
        ("register", f"{base}/players/register/"), ("pair", f"{base}/pair/"),
    ]


# The column headings every width and language must show (chess-results' abbreviations).
HEADINGS = {
    ("round", "de"): ["Bo.", "Nr.", "Weiß", "Standard", "Pkt.", "Ergebnis", "Schwarz"],
    ("round", "en"): ["Bo.", "No.", "White", "Standard", "Pts.", "Result", "Black"],
    ("crosstable", "de"): ["Rk.", "Name", "FIDE", "Verein", "Rd. 1", "Rd. 2", "Pkt.", "BH/C1", "SB"],
    ("crosstable", "en"): ["Rk.", "Name", "FIDE", "Club", "Rd. 1", "Rd. 2", "Pts.", "BH/C1", "SB"],
    ("evaluation", "de"): ["Name", "Standard", "Ø", "W−We", "Rp"],
    ("evaluation", "en"): ["Name", "Standard", "Ø", "W−We", "Rp"],
}
GROUPED = re.compile(r"\b[12][.,]\d{3}\b")  # "2.107" or "2,107": a rating split in groups


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_tournament_page_fits_a_phone_and_a_desktop(page, live_server, context, login, swiss, lang,
                                                           shoot):
    if lang == "en":
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}])
    login(page, "offi", "offi-pw-2026")
    for name, path in pages(swiss):
        # Loaded once at the first width and resized to the next: the styles follow at once, and
        # so do the scripts that choose by width (tests/crawl.py, WIDTHS). goto returns after the
        # load event: stylesheets, scripts and images are in. The pages fetch nothing later (no
        # XHR, no timers), so waiting for network idle would only add its half second of silence.
        page.set_viewport_size({"width": WIDTHS[0], "height": 900})
        page.goto(f"{live_server.url}{path}", wait_until="load")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            shoot(page, f"tournament-{name}-{lang}-{width}")
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{name} at {width} px scrolls sideways by {overflow} px"
            if name in ("round", "pairings"):  # nor does the pairings table inside its scroll box
                inner = page.evaluate("() => Math.max(0, ...[...document.querySelectorAll("
                                      "'main .table-responsive')].map(t => t.scrollWidth - t.clientWidth))")
                assert inner <= 0, f"{name} at {width} px: the table scrolls sideways by {inner} px"
            if width == 1366 and (name, lang) in HEADINGS:
                heads = page.locator("main table").first.locator("thead th").all_inner_texts()
                for heading in HEADINGS[(name, lang)]:
                    assert heading in [h.strip() for h in heads], (name, heading, heads)
            text = page.locator("main").inner_text()
            assert not GROUPED.search(text), f"{name}: grouped rating {GROUPED.search(text).group()}"
            if name in ("players", "standings", "crosstable") and width == 1366:
                assert "2107" in text


def test_phone_menu_opens_every_tab(page, live_server, swiss, shoot):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/tournaments/{swiss.pk}/standings/")
    assert not page.locator(".tournament-tabs").is_visible()
    page.locator(".tournament-menu button").click()
    items = page.locator(".tournament-menu .dropdown-item")
    assert items.all_inner_texts() == ["Übersicht", "Spieler", "Paarungen", "Rangliste", "Kreuztabelle",
                                       "Elo-Auswertung"]
    shoot(page, "tournament-menu-de-390", full_page=False)
    items.nth(5).click()
    page.wait_for_url("**/evaluation/")


def test_result_entry_keys_are_folded_on_a_phone(page, live_server, login, swiss):
    login(page, "offi", "offi-pw-2026")
    for width, folded in ((390, True), (1366, False)):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/tournaments/{swiss.pk}/round/2/results/")
        assert page.evaluate("document.getElementById('result-keys').open") is not folded
