"""Every refusal of the pure readers, through the one catalogue of messages, word for word in
English and German: line and field named, nothing of Python's or a library's English left."""

from __future__ import annotations

import gzip
import io
import zipfile

import pytest
from django.utils import translation

from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.csvtext import CsvError
from clubrating.interchange.formats.fide_list import HEADER, fide_list_line, read_fide_list
from clubrating.interchange.formats.limits import MESSAGES, FieldError, latest_date
from clubrating.interchange.formats.pgn import PgnError, read_pgn
from clubrating.interchange.formats.trf import TrfError, parse_trf
from clubrating.interchange.members_import import members_import_csv
from clubrating.interchange.refusals import csv_refused, fide_list_refused, pgn_refused, trf_refused
from clubrating.national_list.services import national_file_text

HEAD = "012 Test\n042 2005/07/28\n"
A = ("001    1 m  g Alpha, Anna                       2527 AUT    13400304 1978        1.5    1"
     "     2 w 1     2 b =  0000 - H")
B = ("001    2 w    Beta, Berta                          0 AUT           0 1969/12/06  0.5    2"
     "     1 b 0     1 w =")
MEMBERS = "last_name;first_name;birth_date\n"
PGN = ('[Event "E"]\n[Date "{date}"]\n[Round "1"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n'
       "1. e4 1-0\n")


def trf(a=A, b=B, head=HEAD) -> str:
    return head + a + "\n" + b + "\n"


def fide(**values) -> bytes:
    """FIDE's rating list (the text file) with one player."""
    player = {"ID Number": 1600059, "Name": "Ragger, Markus", "Fed": "AUT", "Sex": "M", **values}
    return f"{HEADER}\n{fide_list_line(player)}\n".encode()


def zipped(name: str, data: bytes, method: int | None = None) -> bytes:
    """A zip of one file; ``method`` rewrites its compression method (one no reader knows)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    packed = buffer.getvalue()
    if method is not None:  # in the local header (offset 8) and the central directory (offset 10)
        central = packed.rindex(b"PK\x01\x02")
        code = method.to_bytes(2, "little")
        packed = packed[:8] + code + packed[10:central + 10] + code + packed[central + 12:]
    return packed


# code: (reader, input, line, field, English, German)
CASES = {
    "not_number": ("trf", trf(b=B.replace("0.5    2", "0.5    x")), 4, "rank",
        "Line 4: rank “x” is not a whole number.",
        "Zeile 4: Rang „x“ ist keine ganze Zahl."),
    "range": ("trf", trf(head=HEAD + "XXR 99999\n"), 3, "XXR",
        "Line 3: XXR 99999 is not between 1 and 999.",
        "Zeile 3: XXR 99999 liegt nicht zwischen 1 und 999."),
    "rating": ("trf", trf(b=B.replace("   0 AUT", "  xx AUT")), 4, "rating",
        "Line 4: rating “xx” is not a rating: 0 (unrated) or 100 to 3000.",
        "Zeile 4: Wertungszahl „xx“ ist keine Wertungszahl: 0 (ohne Wertung) oder 100 bis 3000."),
    "date": ("trf", trf(b=B.replace("1969/12/06", "1969/13/06")), 4, "birth date",
        "Line 4: birth date “1969/13/06” is not a date.",
        "Zeile 4: Geburtsdatum „1969/13/06“ ist kein Datum."),
    "date_range": ("trf", trf(b=B.replace("1969/12/06", "1800/12/06")), 4, "birth date",
        "Line 4: birth date 1800-12-06 is not between 1850-01-01 and {high_en}.",
        "Zeile 4: Geburtsdatum 06.12.1800 liegt nicht zwischen 01.01.1850 und {high_de}."),
    "too_long": ("trf", trf(head="012 " + "T" * 201 + "\n"), 1, "tournament name",
        "Line 1: tournament name is longer than 200 characters.",
        "Zeile 1: Turniername ist länger als 200 Zeichen."),
    "missing": ("trf", trf(b=B.replace("Beta, Berta", "           ")), 4, "name",
        "Line 4: name is missing.",
        "Zeile 4: Name fehlt."),
    "control": ("trf", trf(a=A.replace("Alpha", "Al\x07pha")), 3, "",
        "Line 3: column 17 holds a control character (U+0007).",
        "Zeile 3: Spalte 17 enthält ein Steuerzeichen (U+0007)."),
    "line_break": ("csv", MEMBERS + 'Huber;"Anna;1970-01-01\nMaier;Karl;\n', 2, "",
        "Line 2: a quoted field runs on to line 3; is a quote unbalanced?",
        "Zeile 2: ein Feld in Anführungszeichen läuft bis Zeile 3 weiter; fehlt ein schließendes "
        "Anführungszeichen?"),
    "extra_cells": ("csv", MEMBERS + "Huber;Anna;;x\n", 2, "",
        "Line 2: the row has 4 fields, the header only 3.",
        "Zeile 2: die Zeile hat 4 Felder, die Kopfzeile nur 3."),
    "self": ("trf", trf(a=A.replace("     2 w 1     2 b =", "     1 w 1     2 b =")), 3, "",
        "Line 3: round 1: the player plays against himself.",
        "Zeile 3: Runde 1: der Spieler spielt gegen sich selbst."),
    "beyond": ("trf", trf(head=HEAD + "XXR 1\n"), 4, "",
        "Line 4: round 2 is beyond the 1 rounds of the tournament.",
        "Zeile 4: Runde 2 liegt nach den 1 Runden des Turniers."),
    "unpaired": ("trf", trf(b=B.replace("     1 b 0     1 w =", "  0000 - H     1 w =")), 3, "",
        "Line 3: round 1: player 1 plays 2, but the line of 2 (line 4) does not have this game.",
        "Zeile 3: Runde 1: Spieler 1 spielt gegen 2, aber die Zeile von 2 (Zeile 4) enthält "
        "diese Partie nicht."),
    "colours": ("trf", trf(b=B.replace("     1 b 0", "     1 w 0")), 3, "",
        "Line 3: round 1: players 1 and 2 disagree about the colours.",
        "Zeile 3: Runde 1: die Spieler 1 und 2 haben widersprüchliche Farben."),
    "results": ("trf", trf(b=B.replace("     1 b 0", "     1 b 1")), 3, "",
        "Line 3: round 1: the results of players 1 (1) and 2 (1) do not fit together.",
        "Zeile 3: Runde 1: die Ergebnisse der Spieler 1 (1) und 2 (1) passen nicht zusammen."),
    "not_decimal": ("trf", trf(b=B.replace(" 0.5", " x.5")), 4, "points",
        "Line 4: points “x.5” is not a number.",
        "Zeile 4: Punkte „x.5“ ist keine Zahl."),
    "round_results": ("trf", trf(b=B.replace("     1 b 0", "     1 b ?")), 4, "",
        "Line 4: the round results “1 b ?     1 w =” cannot be read: each round is an opponent, "
        "a colour and a result.",
        "Zeile 4: die Rundenergebnisse „1 b ?     1 w =“ können nicht gelesen werden: jede Runde "
        "besteht aus Gegner, Farbe und Ergebnis."),
    "no_players": ("trf", HEAD, None, "",
        "Cannot read the TRF file: the file has no player lines (001).",
        "Die TRF-Datei kann nicht gelesen werden: die Datei hat keine Spielerzeilen (001)."),
    "twice": ("trf", trf(b=B.replace("001    2", "001    1")), 4, "",
        "Line 4: start rank 1 appears twice (also on line 3).",
        "Zeile 4: die Startnummer 1 kommt zweimal vor (auch in Zeile 3)."),
    "no_opponent": ("trf", trf(b=B.replace("     1 b 0", "     9 b 0")), 4, "",
        "Line 4: round 1: opponent 9 has no player line.",
        "Zeile 4: Runde 1: der Gegner 9 hat keine Spielerzeile."),
    "mismatch": ("trf", TrfError("mismatch", 4, round=1, other=2, other_line=5), 4, "",
        "Line 4: round 1: the result against 2 does not match line 5.",
        "Zeile 4: Runde 1: das Ergebnis gegen 2 passt nicht zu Zeile 5."),
    "spill": ("trf", trf(a=A.replace("AUT    13400304 1978", "AUT 134003041234 1978")), 3, "FIDE ID",
        "Line 3: column 69 between FIDE ID (columns 58–68) and birth date (columns 70–79) must "
        "be blank, but “134003041234” runs over it: the fields are shifted.",
        "Zeile 3: Spalte 69 zwischen FIDE-ID (Spalten 58–68) und Geburtsdatum (Spalten 70–79) "
        "muss leer sein, aber „134003041234“ reicht hinein: die Felder sind verschoben."),
    # A league division's TRF-2026 team records (formats/trf/teams.py): a forfeited match's kind.
    "forfeit_kind": ("trf", TrfError("forfeit_kind", 30, field="forfeit kind", value="x-"), 30,
        "forfeit kind",
        "Line 30: forfeit kind “x-” is not one of +-, -+ and --.",
        "Zeile 30: Kampflos-Art „x-“ ist nicht +-, -+ oder --."),
    "empty": ("csv", " \n", None, "",
        "The CSV file cannot be read: the file is empty.",
        "Die CSV-Datei kann nicht gelesen werden: die Datei ist leer."),
    "csv_quote": ("csv", MEMBERS + 'Huber;"Anna" B;1970-01-01\n', 2, "",
        "The CSV file cannot be read: Line 2: a quoted field is followed by more text before the "
        "next “;”; a quote inside a field must be doubled.",
        "Die CSV-Datei kann nicht gelesen werden: Zeile 2: auf ein Feld in Anführungszeichen "
        "folgt vor dem nächsten „;“ weiterer Text; ein Anführungszeichen innerhalb eines Feldes "
        "muss verdoppelt werden."),
    "csv_end": ("csv", MEMBERS + 'Huber;"Anna', 2, "",
        "The CSV file cannot be read: Line 2: the file ends inside a quoted field; is a quote unbalanced?",
        "Die CSV-Datei kann nicht gelesen werden: Zeile 2: die Datei endet in einem Feld in "
        "Anführungszeichen; fehlt ein Anführungszeichen?"),
    "csv_field_size": ("csv", MEMBERS + "Huber;" + "x" * 200_000 + ";\n", 2, "",
        "The CSV file cannot be read: Line 2: a field is longer than 131072 characters.",
        "Die CSV-Datei kann nicht gelesen werden: Zeile 2: ein Feld ist länger als 131072 Zeichen."),
    "csv_syntax": ("csv", CsvError("csv_syntax", line=3), 3, "",
        "The CSV file cannot be read: Line 3: the line cannot be read as CSV.",
        "Die CSV-Datei kann nicht gelesen werden: Zeile 3: die Zeile kann nicht als CSV gelesen werden."),
    "csv_mixed": ("csv", MEMBERS + "Huber;Anna;\nMaier,Karl,1970-01-01\n", 3, "",
        "Line 3: the row is separated by “,”, the header by “;”; every row must use the header's "
        "delimiter.",
        "Zeile 3: die Zeile ist durch „,“ getrennt, die Kopfzeile durch „;“; jede Zeile muss das "
        "Trennzeichen der Kopfzeile verwenden."),
    "xlsx": ("xlsx", b"PK\x03\x04kaputt", None, "",
        "The file is neither a CSV table nor an Excel workbook (XLSX) that can be read.",
        "Die Datei ist weder eine CSV-Tabelle noch eine lesbare Excel-Arbeitsmappe (XLSX)."),
    "pgn_date": ("pgn", PGN.format(date="99999.01.01"), 1, "Date",
        "Game 1 (line 1, A, B – C, D): Date “99999.01.01” is not a date like 2025.03.07 (with ?? "
        "for a part not known).",
        "Partie 1 (Zeile 1, A, B – C, D): Date „99999.01.01“ ist kein Datum wie 2025.03.07 (mit "
        "?? für einen unbekannten Teil)."),
    "fide_header": ("fide", b"1600059        Ragger, Markus\n", 1, "",
        "Line 1: this is not FIDE's rating list: the header line has no column “ID Number”.",
        "Zeile 1: das ist keine FIDE-Elo-Liste: die Kopfzeile hat keine Spalte „ID Number“."),
    "fide_archive": ("fide", zipped("readme.pdf", b"%PDF"), None, "",
        "The FIDE rating list cannot be read: the zip file holds no FIDE rating list "
        "(players_list_foa.txt or players_list_xml_foa.xml).",
        "Die FIDE-Elo-Liste kann nicht gelesen werden: die ZIP-Datei enthält keine FIDE-Elo-Liste "
        "(players_list_foa.txt oder players_list_xml_foa.xml)."),
    "fide_zip": ("fide", b"PK\x03\x04 cut off", None, "",
        "The FIDE rating list cannot be read: the zip file is damaged and cannot be read.",
        "Die FIDE-Elo-Liste kann nicht gelesen werden: die ZIP-Datei ist beschädigt und kann nicht "
        "gelesen werden."),
    "fide_xml": ("fide", b"<playerslist>\n<player><fideid>1</fideid>\n<name>A</nam>\n", 3, "",
        "Line 3: the XML is not well-formed (column 10).",
        "Zeile 3: das XML ist nicht wohlgeformt (Spalte 10)."),
    "fide_code": ("fide", fide(Sex="X"), 2, "Sex",
        "Line 2: Sex “X” is not one of M, F.",
        "Zeile 2: Sex „X“ ist keiner der Werte M, F."),
    "fide_line": ("fide", fide() + b"1" * 5000 + b"\n", 3, "",
        "Line 3: the line is longer than 4096 bytes: it is no line of FIDE's rating list.",
        "Zeile 3: die Zeile ist länger als 4096 Bytes: sie ist keine Zeile der FIDE-Elo-Liste."),
    "fide_entity": ("fide", b'<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY x "R">]>\n<playerslist/>', 2, "",
        "Line 2: the XML declares an entity of its own (“x”), which FIDE's rating list never does.",
        "Zeile 2: das XML deklariert eine eigene Entität („x“), was die FIDE-Elo-Liste nie tut."),
    "fide_packed": ("fide", zipped("players_list_foa.txt", fide(), method=99), None, "",
        "The FIDE rating list cannot be read: the zip file is encrypted or compressed by a method that "
        "cannot be read.",
        "Die FIDE-Elo-Liste kann nicht gelesen werden: die ZIP-Datei ist verschlüsselt oder mit einem "
        "Verfahren gepackt, das nicht gelesen werden kann."),
    "fide_gzip": ("fide", gzip.compress(fide())[:-12], None, "",
        "The FIDE rating list cannot be read: the gzip file is damaged and cannot be read.",
        "Die FIDE-Elo-Liste kann nicht gelesen werden: die gzip-Datei ist beschädigt und kann nicht "
        "gelesen werden."),
    # Two rows of one FIDE ID are found by the import, among the players it keeps.
    "fide_twice": ("fide", FieldError("fide_twice", value=1600059, first=2, line=3), 3, "",
        "Line 3: FIDE ID 1600059 appears twice (also on line 2).",
        "Zeile 3: FIDE-ID 1600059 kommt zweimal vor (auch in Zeile 2)."),
}


def refusal(reader: str, text) -> ImportRefused:
    if reader == "fide":
        if isinstance(text, FieldError):
            return fide_list_refused(text)
        with pytest.raises(FieldError) as caught:
            list(read_fide_list(io.BytesIO(text)))
        return fide_list_refused(caught.value)
    if isinstance(text, TrfError):  # pairings the checks refuse first: not reached from a file
        return trf_refused(text)
    if isinstance(text, CsvError):  # the csv module's other errors
        return csv_refused(text)
    if reader in ("csv", "xlsx"):  # a workbook is read as CSV text first (the national list)
        with pytest.raises(ImportRefused) as caught:
            members_import_csv(text=text) if reader == "csv" else national_file_text(text)
        return caught.value
    with pytest.raises((TrfError, PgnError)) as caught:
        (parse_trf if reader == "trf" else read_pgn)(text)
    return (trf_refused if reader == "trf" else pgn_refused)(caught.value)


# Codes only the forms raise (``clubrating.core.plausible``; their messages are checked word for
# word in tests/core/test_plausible.py): a reader's line holds no line break to refuse.
FORMS_ONLY = {"name_line"}


def test_every_code_of_the_catalogue_is_covered():
    assert set(CASES) == set(MESSAGES) - FORMS_ONLY


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de-at"])
@pytest.mark.parametrize("code", sorted(CASES))
def test_every_refusal_in_english_and_german(code, language):
    reader, text, line, field, english, german = CASES[code]
    latest = latest_date()
    expected = (english if language == "en" else german).format(
        high_en=latest.isoformat(), high_de=latest.strftime("%d.%m.%Y"))
    with translation.override(language):
        refused = refusal(reader, text)
    assert (refused.message, refused.line, refused.field) == (expected, line, field)
