"""Print layouts, PDFs and the CSV/XLSX export of the standings."""

import csv
import datetime
import io
import re
import subprocess

import openpyxl
import pytest

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Game, Result, TournamentKind
from tests.factories import (
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)
from tests.tournaments.test_tiebreaks import ROUND_ROBIN_SIX

from .helpers import page, text

pytestmark = pytest.mark.django_db


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return done.stdout.decode()


@pytest.fixture
def played(tournament):
    Game.objects.filter(round__tournament=tournament, board=1).update(result=Result.WHITE_WINS,
                                                                      rated_result=Result.WHITE_WINS)
    return tournament


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Herbstturnier: Standings", "Schachklub Heimat", "Tie-breaks by FIDE C.07, edition 2026: BH, SB",
            "Page", "Rk.", "Print"]),
    ("de-at", ["Herbstturnier: Rangliste", "Schachklub Heimat",
               "Feinwertungen nach FIDE C.07, Ausgabe 2026: BH, SB", "Seite", "Rk.", "Drucken"]),
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


@pytest.mark.parametrize(("kind", "lang", "name"), [
    ("standings", "de-at", "Herbstturnier_Rangliste.pdf"),
    ("crosstable", "de-at", "Herbstturnier_Kreuztabelle.pdf"),
    ("standings", "en", "Herbstturnier_Standings.pdf"),
    ("crosstable", "en", "Herbstturnier_Crosstable.pdf"),
])
def test_pdfs_of_standings_and_crosstable(client, played, kind, lang, name):
    response = page(client, "print", played.pk, kind, pdf=1, lang=lang)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert response.content.startswith(b"%PDF-")
    assert len(response.content) > 2000


def test_pdf_of_the_pairings(client, played):
    response = page(client, "round_print", played.pk, 1, pdf=1, lang="de-at")
    assert response.content.startswith(b"%PDF-")
    assert response["Content-Disposition"] == 'attachment; filename="Herbstturnier_Paarungen_Runde_1.pdf"'


def test_unknown_print_kind_is_404(client, played):
    assert page(client, "print", played.pk, "nonsense").status_code == 404
    assert page(client, "standings_export", played.pk, "json").status_code == 404


@pytest.mark.parametrize(("lang", "header", "first"), [
    # The national rating is headed by the pool that rates the tournament; FIDE has its own column.
    ("en", "Rank,Name,Club,Standard,FIDE,FIDE ID,Points,BH,SB",
     '1,"Adler, Max",Schachklub Heimat,1830,,,1.0,'),
    # German: semicolons and decimal commas, as Excel in Austria reads them.
    ("de-at", "Rang;Name;Verein;Standard;FIDE;FIDE-ID;Punkte;BH;SB",
     "1;Adler, Max;Schachklub Heimat;1830;;;1,0;"),
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
    assert rows[1][:7] == (1, "Adler, Max", "'=1+1", 1830, None, None, 1)
    assert len(rows) == 5


# The six-player round robin worked by hand in tests/tournaments/test_tiebreaks.py
# (``ROUND_ROBIN_SIX``): {1, 2, 3} tied on 2.5 (DE 1.5, 1.5, 0), {4, 5} on 2.0 who drew each
# other (DE ½ each), 6 alone on 3.5. Berger schedule for six: the pairs of each round.
BERGER_SIX = [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
              [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
NAMES = ["Eins", "Zwei", "Drei", "Vier", "Fünf", "Sechs"]


@pytest.fixture
def round_robin(home_club):
    tournament = TournamentFactory(name="Vereinsmeisterschaft", kind=TournamentKind.ROUND_ROBIN,
                                   rounds_count=5, start_date=datetime.date(2026, 9, 1),
                                   tiebreaks="DE,WIN,SB,KS")
    members = {}
    for rank, name in enumerate(NAMES, start=1):
        members[rank] = MemberFactory(last_name=name, first_name="Max", club=home_club)
        TournamentPlayerFactory(tournament=tournament, member=members[rank], start_rank=rank, rating=1800)
    for number, pairs in enumerate(BERGER_SIX, start=1):
        rnd = RoundFactory(tournament=tournament, number=number)
        for board, (white, black) in enumerate(pairs, start=1):
            low, high = sorted((white, black))
            white_points = ROUND_ROBIN_SIX[(low, high)] if white == low else 1 - ROUND_ROBIN_SIX[(low, high)]
            result = {1.0: Result.WHITE_WINS, 0.5: Result.DRAW, 0.0: Result.BLACK_WINS}[white_points]
            GameFactory(round=rnd, board=board, white=members[white], black=members[black], result=result)
    return tournament


def standings_cells(html: str, name: str) -> list[str]:
    row = html[html.index(f"{name}, Max"):]
    row = row[:row.index("</tr>")]
    return re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)


@pytest.mark.parametrize(("lang", "fuenf", "zwei"), [
    # Fünf and Vier drew each other: DE ½, not "1"; KS in half points as the export writes it.
    ("de-at", ["2,0", "0,5", "1", "5,75", "1,5"], ["2,5", "1,5", "2", "5,75", "1,5"]),
    ("en", ["2.0", "0.5", "1", "5.75", "1.5"], ["2.5", "1.5", "2", "5.75", "1.5"]),
])
def test_direct_encounter_of_a_draw_reads_the_same_on_page_print_and_exports(client, round_robin, lang,
                                                                             fuenf, zwei):
    html = text(page(client, "standings", round_robin.pk, lang=lang))
    assert standings_cells(html, "Fünf")[-5:] == fuenf
    assert standings_cells(html, "Zwei")[-5:] == zwei
    printed = text(page(client, "print", round_robin.pk, "standings", lang=lang))
    assert standings_cells(printed, "Fünf")[-5:] == fuenf
    crosstable = text(page(client, "crosstable", round_robin.pk, lang=lang))
    assert standings_cells(crosstable, "Fünf")[-4:] == fuenf[1:]

    response = page(client, "standings_export", round_robin.pk, "csv", lang=lang)
    csv_text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(csv_text), delimiter=";" if lang == "de-at" else ","))
    order = ("Sechs", "Zwei", "Eins", "Drei", "Fünf", "Vier")
    assert [row[1] for row in rows[1:]] == [f"{name}, Max" for name in order]
    assert rows[5][-5:] == fuenf and rows[2][-5:] == zwei


def test_direct_encounter_in_the_xlsx_and_the_pdf(client, round_robin):
    response = page(client, "standings_export", round_robin.pk, "xlsx", lang="de-at")
    assert response["Content-Disposition"] == (
        'attachment; filename="Vereinsmeisterschaft_Rangliste.xlsx"')
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content))).active
    fuenf = [cell for cell in sheet[6]][-5:]
    assert [(cell.value, cell.number_format) for cell in fuenf] == [
        (2, "0.0"), (0.5, "0.0"), (1, "0"), (5.75, "0.00"), (1.5, "0.0")]
    assert sheet.freeze_panes == "A2"

    pdf = page(client, "print", round_robin.pk, "standings", pdf=1, lang="de-at").content
    lines = pdf_text(pdf).splitlines()
    fuenf_line = next(line for line in lines if "Fünf, Max" in line)
    assert fuenf_line.split()[-5:] == ["2,0", "0,5", "1", "5,75", "1,5"]
