"""Print layouts, PDFs and the CSV/XLSX export of the standings."""

import io

import openpyxl
import pytest

from clubrating.tournaments.models import Game, Result

from .helpers import page, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament):
    Game.objects.filter(round__tournament=tournament, board=1).update(result=Result.WHITE_WINS,
                                                                      rated_result=Result.WHITE_WINS)
    return tournament


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Herbstturnier: Standings", "Schachklub Heimat", "Tie-breaks: BH, SB", "Page", "Rank", "Print"]),
    ("de-at", ["Herbstturnier: Rangliste", "Schachklub Heimat", "Feinwertungen: BH, SB", "Seite", "Rang",
               "Drucken"]),
])
def test_standings_print_layout(client, played, lang, words):
    html = text(page(client, "print", played.pk, "standings", lang=lang))
    for word in words:
        assert word in html
    assert "navbar" not in html  # no navigation on paper
    assert html.index("Adler") < html.index("Berger")


@pytest.mark.parametrize(("lang", "title"), [("en", "Progress table"), ("de-at", "Fortschrittstabelle")])
def test_crosstable_print_layout(client, played, lang, title):
    html = text(page(client, "print", played.pk, "crosstable", lang=lang))
    assert f"Herbstturnier: {title}" in html and "2w1" in html


@pytest.mark.parametrize(("lang", "title"), [("en", "Pairings round 1"), ("de-at", "Paarungen Runde 1")])
def test_pairings_print_layout(client, played, lang, title):
    html = text(page(client, "round_print", played.pk, 1, lang=lang))
    assert f"Herbstturnier: {title}" in html
    assert "Adler, Max" in html and "1-0" in html


@pytest.mark.parametrize("kind", ["standings", "crosstable"])
def test_pdfs_of_standings_and_crosstable(client, played, kind):
    response = page(client, "print", played.pk, kind, pdf=1)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="herbstturnier-{kind}.pdf"'
    assert response.content.startswith(b"%PDF-")
    assert len(response.content) > 2000


def test_pdf_of_the_pairings(client, played):
    response = page(client, "round_print", played.pk, 1, pdf=1)
    assert response.content.startswith(b"%PDF-")
    assert response["Content-Disposition"] == 'attachment; filename="herbstturnier-round-1.pdf"'


def test_unknown_print_kind_is_404(client, played):
    assert page(client, "print", played.pk, "nonsense").status_code == 404
    assert page(client, "standings_export", played.pk, "json").status_code == 404


@pytest.mark.parametrize(("lang", "header"), [
    # The national rating is headed by the pool that rates the tournament; FIDE has its own column.
    ("en", "Rank,Name,Club,Standard,FIDE,FIDE ID,Points,BH,SB"),
    ("de-at", "Rang,Name,Verein,Standard,FIDE,FIDE-ID,Punkte,BH,SB"),
])
def test_standings_csv_with_translated_headers(client, played, lang, header):
    response = page(client, "standings_export", played.pk, "csv", lang=lang)
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == header
    assert lines[1].startswith("1,\"Adler, Max\",Schachklub Heimat,1830,,,1.0")
    assert len(lines) == 5


def test_standings_xlsx(client, played):
    response = page(client, "standings_export", played.pk, "xlsx", lang="de-at")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:7] == ("Rang", "Name", "Verein", "Standard", "FIDE", "FIDE-ID", "Punkte")
    assert rows[1][1] == "Adler, Max"
    assert len(rows) == 5
