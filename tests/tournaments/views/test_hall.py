"""The hall: the projector's screen (views/hall.py) and the QR codes of the printed sheets."""

import io
import re

import pypdf
import pytest
import segno
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Game, Result
from ratings.services import game_record_result
from tests.factories import ClubFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db


def qr_paths(html: str) -> list[str]:
    """The dark modules' path of every QR code (inline SVG) in ``html``; the white background is
    a path of its own."""
    codes = re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="[^"]*" '
                       r'viewBox="0 0 \d+ \d+" class="qr-code">.*?</svg>', html)
    return [re.search(r'<path stroke="#000"[^>]* d="([^"]+)"', code).group(1) for code in codes]


def expected_path(url: str) -> str:
    svg = segno.make(url, error="m").svg_inline(border=2, omitsize=True, lineclass=None)
    return re.search(r' d="([^"]+)"', svg).group(1)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Pairings round 1", "Standings after round 1", "Full screen", "Live on your phone"]),
    ("de-at", ["Paarungen Runde 1", "Rangliste nach Runde 1", "Vollbild", "Live am Handy"]),
])
def test_hall_screen_shows_the_round_and_the_standings(client, tournament, lang, words):
    html = text(page(client, "hall", tournament.pk, lang=lang))
    for word in words:
        assert word in html
    assert "navbar" not in html and "<script>" not in html and 'src="/static/js/hall.js"' in html
    assert html.index("Adler, Max") < html.index("Berger, Max")
    # The QR code leads the phones in the room to the tournament's page.
    assert qr_paths(html) == [expected_path(f"http://testserver/tournaments/{tournament.pk}/")]


def test_hall_screen_refreshes_only_when_results_come_in(client, tournament):
    url = reverse("tournaments:hall", args=[tournament.pk])
    html = text(client.get(url))
    version = html.split('id="hall-live" data-version="')[1].split('"')[0]
    assert client.get(url, {"fragment": 1, "v": version}).status_code == 204
    game_record_result(game=Game.objects.get(round__tournament=tournament, board=1), result=Result.WHITE_WINS,
                       user=None)
    response = client.get(url, {"fragment": 1, "v": version})
    fragment = text(response)
    assert response.status_code == 200 and fragment.lstrip().startswith('<div id="hall-live"')
    assert "<html" not in fragment and "1-0" in fragment


def test_hall_screen_is_public_only_where_tournaments_are(client, tournament):
    assert page(client, "hall", tournament.pk).status_code == 200
    Club.objects.filter(is_home=True).update(public_tournaments=False)
    response = page(client, "hall", tournament.pk)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.parametrize(("name", "args", "live"), [
    ("round_print", [1], "round/1/"), ("print", ["standings"], "standings/"),
    ("print", ["crosstable"], "standings/"),
])
def test_printed_sheets_carry_a_qr_code_to_the_live_page(client, tournament, name, args, live):
    html = text(page(client, name, tournament.pk, *args))
    assert qr_paths(html) == [expected_path(f"http://testserver/tournaments/{tournament.pk}/{live}")]


@pytest.mark.parametrize(("name", "args", "live"), [
    ("round_print", [1], "round/1/"), ("print", ["standings"], "standings/"),
])
def test_the_pdfs_draw_the_qr_code(client, tournament, name, args, live):
    """pdftotext cannot read a QR code; the PDF draws it as the SVG's path: one line per run of
    dark modules (the SVG's "h" commands), on the first page only."""
    runs = expected_path(f"http://testserver/tournaments/{tournament.pk}/{live}").count("h")
    reader = pypdf.PdfReader(io.BytesIO(page(client, name, tournament.pk, *args, pdf=1).content))
    drawn = reader.pages[0].get_contents().get_data()
    assert runs > 100
    assert drawn.count(b" l\n") >= runs


def test_hall_screen_shows_a_restricted_player_by_name_and_rating_only(client, tournament):
    """A minor without his guardians' consent (clubs.privacy): name and rating, not his club."""
    adler = tournament.members[0]
    adler.club = ClubFactory(name="SK Jugendheim")
    adler.birth_year = 2013
    adler.save()
    html = text(page(client, "hall", tournament.pk))
    assert "Adler, Max" in html and "1830" in html
    assert "SK Jugendheim" not in html


@pytest.mark.parametrize(("lang", "label"), [("en", "Hall screen for a projector"),
                                             ("de-at", "Saalanzeige für den Beamer")])
def test_tournament_page_links_the_hall_screen(client, tournament, lang, label):
    html = text(page(client, "detail", tournament.pk, lang=lang))
    assert f'href="/tournaments/{tournament.pk}/hall/" id="hall-link">{label}</a>' in html
