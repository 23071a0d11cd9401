"""Print layouts, PDFs and the CSV/XLSX export of the standings."""

import csv
import io

import openpyxl
import pytest

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Game, Result

from .helpers import page, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament):
    Game.objects.filter(round__tournament=tournament, board=1).update(result=Result.WHITE_WINS,
                                                                      rated_result=Result.WHITE_WINS)
    return tournament


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Herbstturnier: Standings", "Schachklub Heimat", "Tie-breaks: BH, SB", "Page", "Rk.", "Print"]),
    ("de-at", ["Herbstturnier: Rangliste", "Schachklub Heimat", "Feinwertungen: BH, SB", "Seite", "Rk.",
               "Drucken"]),
])
def test_standings_print_layout(client, played, lang, words):
    html = text(page(client, "print", played.pk, "standings", lang=lang))
    for word in words:
        assert word in html
    assert "navbar" not in html  # no navigation on paper
    assert html.index("Adler") < html.index("Berger")


@pytest.mark.parametrize(("lang", "title", "progress", "rank"), [
    ("en", "Crosstable", "Progress table", "Rk."), ("de-at", "Kreuztabelle", "Fortschrittstabelle", "Rk."),
])
def test_crosstable_print_layout(client, played, lang, title, progress, rank):
    html = text(page(client, "print", played.pk, "crosstable", lang=lang))
    # Rank order; Adler (rank 1) beat Berger (rank 2 by Buchholz) with white.
    assert f"Herbstturnier: {title}" in html and progress in html and f">{rank}<" in html
    assert ">2w1<" in html and (">1b0<" if lang == "en" else ">1s0<") in html
    assert html.index("Adler") < html.index("Berger") < html.index("Ced")


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


@pytest.mark.parametrize(("lang", "header", "first"), [
    # The national rating is headed by the pool that rates the tournament; FIDE has its own column.
    ("en", "Rank,Name,Club,Standard,FIDE,FIDE ID,Points,BH,SB", '1,"Adler, Max",Schachklub Heimat,1830,,,1,'),
    # German: semicolons and decimal commas, as Excel in Austria reads them.
    ("de-at", "Rang;Name;Verein;Standard;FIDE;FIDE-ID;Punkte;BH;SB",
     "1;Adler, Max;Schachklub Heimat;1830;;;1;"),
])
def test_standings_csv_with_translated_headers(client, played, lang, header, first):
    response = page(client, "standings_export", played.pk, "csv", lang=lang)
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[0] == header
    assert lines[1].startswith(first)
    assert len(lines) == 5


def test_standings_csv_neutralises_formulas(client, played):
    Club.objects.filter(name="Schachklub Heimat").update(name="@SUM(A1:A9)")
    response = page(client, "standings_export", played.pk, "csv", lang="de-at")
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[1][2] == "'@SUM(A1:A9)"


def test_standings_xlsx(client, played):
    Club.objects.filter(name="Schachklub Heimat").update(name="=1+1")
    response = page(client, "standings_export", played.pk, "xlsx", lang="de-at")
    workbook = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert workbook.sheetnames == ["Rangliste"]
    cells = [cell for row in workbook.active.iter_rows() for cell in row]
    assert not [cell for cell in cells if cell.data_type == "f"]
    rows = list(workbook.active.iter_rows(values_only=True))
    assert rows[0][:7] == ("Rang", "Name", "Verein", "Standard", "FIDE", "FIDE-ID", "Punkte")
    assert rows[1][:7] == (1, "Adler, Max", "=1+1", 1830, None, None, 1)
    assert len(rows) == 5
