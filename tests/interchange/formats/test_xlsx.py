"""XLSX workbooks read as CSV text: row n is line n, values as a CSV import reads them."""

import datetime
import io

import openpyxl
import pytest

from clubrating.interchange.formats.csvtext import read_csv
from clubrating.interchange.formats.limits import FieldError
from clubrating.interchange.formats.xlsx import is_xlsx, xlsx_to_csv


def workbook(*rows, at: dict | None = None) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    for cell, value in (at or {}).items():
        book.active[cell] = value
    raw = io.BytesIO()
    book.save(raw)
    return raw.getvalue()


def test_rows_become_lines_with_their_numbers():
    raw = workbook(["ÖSB-Nr", "Name", "Elo", "Geboren"],
                   [1001, "Huber, Anna", 1650.0, datetime.date(1990, 5, 1)],
                   [], [1002, "Maier\nKarl", None, "1970"], at={"B7": "allein"})
    text = xlsx_to_csv(raw)
    assert text == ('"ÖSB-Nr","Name","Elo","Geboren"\n"1001","Huber, Anna","1650","1990-05-01"\n\n'
                    '"1002","Maier Karl","","1970"\n\n\n"","allein"\n')
    table = read_csv(text)
    assert [(row.line, row.get("ösb-nr"), row.get("name")) for row in table.rows] == [
        (2, "1001", "Huber, Anna"), (4, "1002", "Maier Karl"), (7, "", "allein")]


def test_a_decimal_stays_a_decimal():
    assert xlsx_to_csv(workbook(["elo"], [1650.5])) == '"elo"\n"1650.5"\n'


@pytest.mark.parametrize("raw", [b"PK\x03\x04", b"PK\x03\x04" + b"\x00" * 100, b"not a zip"])
def test_bytes_that_are_no_workbook_are_refused(raw):
    with pytest.raises(FieldError) as refused:
        xlsx_to_csv(raw)
    assert refused.value.code == "xlsx"


def test_a_workbook_is_told_by_its_first_bytes():
    assert is_xlsx(workbook(["a"])) is True
    assert is_xlsx(b"id;elo\n") is False
