"""FIDE's combined rating list: the text file (columns from the header), the XML and the zip."""

import gzip
import io
import zipfile

import pytest

from clubrating.interchange.formats.fide_list import (
    HEADER,
    FidePlayerRow,
    fide_list_line,
    read_fide_list,
    read_fide_list_path,
)
from clubrating.interchange.formats.limits import FieldError
from tests.paths import FIDE_DIR

RAGGER = FidePlayerRow(
    line=2, fide_id=1600059, name="Ragger, Markus", federation="AUT", sex="m", title="GM", women_title="",
    other_titles="", foa_title="", standard=2629, standard_games=9, standard_k=10, rapid=2575, rapid_games=0,
    rapid_k=20, blitz=2601, blitz_games=11, blitz_k=20, birth_year=1988, flag="")
MUELLER = FidePlayerRow(
    line=3, fide_id=1601393, name="Müller-Lüdenscheidt, Hans Jörg", federation="AUT", sex="m", title="FM",
    women_title="", other_titles="FA,IA", foa_title="", standard=2301, standard_games=5, standard_k=20,
    rapid=2250, rapid_games=0, rapid_k=20, blitz=None, blitz_games=None, blitz_k=None, birth_year=1970,
    flag="i")
HUBER = FidePlayerRow(
    line=4, fide_id=1612345, name="Huber, Anna", federation="AUT", sex="f", title="WFM", women_title="WFM",
    other_titles="", foa_title="ACM", standard=2001, standard_games=0, standard_k=40, rapid=None,
    rapid_games=None, rapid_k=None, blitz=None, blitz_games=None, blitz_k=None, birth_year=2009, flag="w")
DJORDJEVIC = FidePlayerRow(
    line=5, fide_id=1623456, name="Ðorđević, Zoë", federation="SRB", sex="f", title="", women_title="WIM",
    other_titles="FT", foa_title="", standard=2188, standard_games=0, standard_k=20, rapid=None,
    rapid_games=None, rapid_k=None, blitz=2100, blitz_games=3, blitz_k=20, birth_year=None, flag="wi")


def _rows(data: bytes) -> list[FidePlayerRow]:
    return list(read_fide_list(io.BytesIO(data)))


def _refused(data: bytes) -> FieldError:
    with pytest.raises(FieldError) as caught:
        _rows(data)
    return caught.value


def test_every_column_of_the_text_file_is_read():
    rows = list(read_fide_list_path(FIDE_DIR / "players_list_foa.txt"))
    assert rows[:4] == [RAGGER, MUELLER, HUBER, DJORDJEVIC]
    kasparov, nobody = rows[4:]
    assert (kasparov.fide_id, kasparov.standard, kasparov.rapid_games, kasparov.blitz_games,
            kasparov.inactive) == (24601, 2812, None, None, True)
    assert (nobody.name, nobody.sex, nobody.standard, nobody.standard_k, nobody.birth_year, nobody.flag,
            nobody.inactive) == ("Nobody", "m", None, None, 1999, "", False)
    assert [row.inactive for row in rows[:4]] == [False, True, False, True]


def test_an_older_layout_is_read_by_its_own_header():
    rows = list(read_fide_list_path(FIDE_DIR / "players_list_2014.txt"))  # Windows-1252, no FOA column
    assert rows == [RAGGER, MUELLER, FidePlayerRow(**{**_fields(HUBER), "foa_title": ""})]


def _fields(row: FidePlayerRow) -> dict:
    return {name: getattr(row, name) for name in row.__slots__}


def test_the_xml_file_holds_the_same_players():
    rows = list(read_fide_list_path(FIDE_DIR / "players_list_xml_foa.xml"))
    # XML lines: each player starts on the line of his <player>.
    assert [row.line for row in rows] == [3, 24, 45]
    assert [{**_fields(row), "line": 0} for row in rows] == [
        {**_fields(player), "line": 0} for player in (RAGGER, MUELLER, HUBER)]


@pytest.mark.parametrize("inner", ["players_list_foa.txt", "players_list_xml_foa.xml"])
def test_a_zip_is_read_from_the_file_inside(inner, tmp_path):
    archive = tmp_path / "players_list.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.write(FIDE_DIR / inner, inner)
    rows = list(read_fide_list_path(archive))
    assert [(row.fide_id, row.name) for row in rows[:3]] == [
        (1600059, "Ragger, Markus"), (1601393, "Müller-Lüdenscheidt, Hans Jörg"), (1612345, "Huber, Anna")]


def test_a_utf8_file_padded_by_bytes_is_read_where_its_columns_are():
    line = fide_list_line({"ID Number": 1601393, "Name": "Jörg, Hans", "Fed": "AUT", "SRtng": 2301})
    # Padded to the column by bytes: "ö" takes two, so one blank fewer follows the name.
    padded = line.encode("utf-8").replace(b"Hans  ", b"Hans ", 1)
    rows = _rows(HEADER.encode() + b"\n" + padded + b"\n")
    assert (rows[0].name, rows[0].federation, rows[0].standard) == ("Jörg, Hans", "AUT", 2301)


def test_blank_lines_are_skipped_and_a_byte_order_mark_dropped():
    data = "\ufeff" + HEADER + "\n\n" + fide_list_line({"ID Number": 5, "Name": "A, B", "Fed": "AUT"}) + "\n"
    assert [(row.line, row.fide_id) for row in _rows(data.encode())] == [(3, 5)]


def _line(**values) -> bytes:
    base = {"ID Number": 1600059, "Name": "Ragger, Markus", "Fed": "AUT", "Sex": "M", "SRtng": 2629}
    return (HEADER + "\n" + fide_list_line({**base, **values}) + "\n").encode()


@pytest.mark.parametrize(("values", "message"), [
    ({"ID Number": "16OO59"}, "line 2: ID Number “16OO59” is not a whole number."),
    ({"ID Number": None}, "line 2: ID Number “” is not a whole number."),
    ({"Name": None}, "line 2: Name is missing."),
    ({"Fed": "Aut"}, "line 2: Fed “Aut” is not one of AUT, GER, …."),
    ({"Sex": "X"}, "line 2: Sex “X” is not one of M, F."),
    ({"Tit": "XM"}, "line 2: Tit “XM” is not one of GM, IM, FM, CM, WGM, WIM, WFM, WCM."),
    ({"WTit": "GM"}, "line 2: WTit “GM” is not one of WGM, WIM, WFM, WCM."),
    ({"FOA": "AXM"}, "line 2: FOA “AXM” is not one of AGM, AIM, AFM, ACM."),
    ({"SRtng": "3500"}, "line 2: SRtng “3500” is not a rating: 0 (unrated) or 100 to 3000."),
    ({"RRtng": "abc"}, "line 2: RRtng “abc” is not a rating: 0 (unrated) or 100 to 3000."),
    ({"BRtng": "2000.5"}, "line 2: BRtng “2000.5” is not a whole number."),
    ({"SGm": "-1"}, "line 2: SGm -1 is not between 0 and 100000."),
    ({"SK": "150"}, "line 2: SK 150 is not between 0 and 100."),
    ({"B-day": "1799"}, "line 2: B-day 1799 is not between 1850 and "),
    ({"Flag": "x"}, "line 2: Flag “x” is not one of i, w, wi."),
])
def test_a_bad_value_is_refused_with_its_line_and_column(values, message):
    assert str(_refused(_line(**values))).startswith(message)


def test_a_control_character_is_refused_with_its_line():
    data = _line() + fide_list_line({"ID Number": 7, "Name": "Null\x00, Byte", "Fed": "AUT"}).encode() + b"\n"
    problem = _refused(data)
    assert (problem.code, problem.line, str(problem)) == (
        "control", 3, "line 3: column 20 holds a control character (U+0000).")


def test_a_file_without_the_header_is_refused():
    assert str(_refused(b"1600059 Ragger, Markus AUT\n")) == (
        "line 1: this is not FIDE's rating list: the header line has no column “ID Number”.")
    assert str(_refused(b"ID Number      Name\n")) == (
        "line 1: this is not FIDE's rating list: the header line has no column “Fed”.")
    assert _refused(b"\n\n").code == "empty"


def test_bad_xml_is_refused_with_its_line():
    problem = _refused(b"<playerslist>\n<player><fideid>1</fideid>\n<name>A</nam>\n</player></playerslist>")
    assert (problem.code, problem.line, str(problem)) == (
        "fide_xml", 3, "line 3: the XML is not well-formed (column 10).")
    problem = _refused(b"<playerslist>\n<player>\n<fideid>x</fideid><name>A</name><country>AUT</country>"
                       b"</player></playerslist>")
    assert str(problem) == "line 2: fideid “x” is not a whole number."


def test_a_zip_without_a_list_or_damaged_is_refused(tmp_path):
    archive = tmp_path / "other.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("readme.pdf", b"%PDF")
    with pytest.raises(FieldError) as caught:
        list(read_fide_list_path(archive))
    assert str(caught.value) == (
        "the zip file holds no FIDE rating list (players_list_foa.txt or players_list_xml_foa.xml).")
    assert _refused(b"PK\x03\x04 broken").code == "fide_zip"


# --- line ends, encodings and compression a list may come in


def _two_players() -> str:
    return "\n".join([HEADER, fide_list_line({"ID Number": 1600059, "Name": "Ragger, Markus", "Fed": "AUT",
                                               "SRtng": 2629}),
                      fide_list_line({"ID Number": 1601393, "Name": "Müller, Jörg", "Fed": "AUT",
                                      "SRtng": 2301, "B-day": 1970, "Flag": "i"})]) + "\n"


def _read(data: bytes) -> list[tuple]:
    return [(row.line, row.fide_id, row.name, row.federation, row.standard, row.birth_year, row.flag)
            for row in _rows(data)]


TWO = [(2, 1600059, "Ragger, Markus", "AUT", 2629, None, ""),
       (3, 1601393, "Müller, Jörg", "AUT", 2301, 1970, "i")]


@pytest.mark.parametrize("data", [
    _two_players().replace("\n", "\r").encode(),  # classic Mac line ends: one line each, not one in all
    _two_players().replace("\n", "\r\n").encode("utf-8-sig"),
    _two_players().encode("utf-16"),  # a byte order mark, as Windows' editors save "Unicode"
    _two_players().replace("\n", "\r\n").encode("utf-16-be").join([b"\xfe\xff", b""]),
    gzip.compress(_two_players().encode()),
    gzip.compress(_two_players().replace("\n", "\r\n").encode("cp1252")),
], ids=["cr", "crlf-bom", "utf16-le", "utf16-be-crlf", "gzip", "gzip-cp1252-crlf"])
def test_every_line_end_encoding_and_gzip_read_the_same_players(data):
    assert _read(data) == TWO


def test_a_line_split_by_a_crlf_across_two_chunks_counts_once(monkeypatch):
    from clubrating.interchange.formats import fide_list

    data = _two_players().replace("\n", "\r\n").encode()
    for size in range(2, 12):
        monkeypatch.setattr(fide_list, "_CHUNK", size)
        assert _read(data) == TWO


def test_an_xml_list_gzipped_or_in_utf16_is_read():
    xml = (FIDE_DIR / "players_list_xml_foa.xml").read_bytes()
    utf16 = xml.decode().replace('encoding="utf-8"', 'encoding="utf-16"').encode("utf-16")
    for data in (gzip.compress(xml), utf16):
        assert [(row.line, row.fide_id, row.name) for row in _rows(data)] == [
            (3, 1600059, "Ragger, Markus"), (24, 1601393, "Müller-Lüdenscheidt, Hans Jörg"),
            (45, 1612345, "Huber, Anna")]


def test_a_line_beyond_any_list_line_is_refused_without_reading_it_whole():
    endless = io.BytesIO(_two_players().encode() + b" " * 50_000_000)
    problem = _refused(endless.getvalue())
    assert (problem.code, problem.line, str(problem)) == (
        "fide_line", 4, "line 4: the line is longer than 4096 bytes: it is no line of FIDE's rating list.")


def test_an_xml_entity_declaration_is_refused_not_expanded():
    for declaration in ('<!ENTITY x "Ragger">', '<!ENTITY x SYSTEM "file:///etc/passwd">',
                        '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'):
        data = (f'<?xml version="1.0"?>\n<!DOCTYPE playerslist [{declaration}]>\n<playerslist>\n<player>'
                "<fideid>5</fideid><name>&x;, B</name><country>AUT</country></player></playerslist>")
        problem = _refused(data.encode())
        assert (problem.code, problem.line) == ("fide_entity", 2)
    assert str(problem) == (
        "line 2: the XML declares an entity of its own (“a”), which FIDE's rating list never does.")


def test_an_xml_text_without_end_is_refused_at_its_line():
    data = (b"<playerslist>\n<player><fideid>5</fideid>\n<name>" + b"A" * 20_000
            + b"</name></player></playerslist>")
    assert str(_refused(data)) == "line 3: name is longer than 10000 characters."


def _damaged(method: int) -> bytes:
    """A zip whose compressed data is damaged: its first bytes are no valid stream of ``method``."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", method) as zipped:
        zipped.writestr("players_list_foa.txt", _two_players() * 20)
    data = bytearray(archive.getvalue())
    start = 30 + len("players_list_foa.txt")  # the local header, then the compressed data
    data[start:start + 16] = b"\xff" * 16
    return bytes(data)


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_damaged_compressed_data_is_refused_as_a_damaged_zip(method):
    problem = _refused(_damaged(method))
    assert (problem.code, str(problem)) == ("fide_zip", "the zip file is damaged and cannot be read.")


def test_an_empty_zip_and_a_damaged_gzip_say_what_they_are():
    empty = io.BytesIO()
    zipfile.ZipFile(empty, "w").close()
    assert str(_refused(empty.getvalue())) == (
        "the zip file holds no FIDE rating list (players_list_foa.txt or players_list_xml_foa.xml).")
    assert str(_refused(gzip.compress(_two_players().encode())[:-12])) == (
        "the gzip file is damaged and cannot be read.")


def test_a_tab_in_a_name_is_a_blank():
    data = _two_players().replace("Ragger, Markus", "Ragger,\tMarkus").encode()
    assert _read(data)[0][2] == "Ragger, Markus"
