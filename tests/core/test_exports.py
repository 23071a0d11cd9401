"""The shared export helpers: language conventions, numbers as numbers, no formula ever."""

import csv
import io

import openpyxl
import pytest
from django.utils import translation

from clubrating.core.exports import ExportColumn, csv_lines, export_number, safe_text, xlsx_file

COLUMNS = [
    ExportColumn("Name", lambda r: r[0]),
    ExportColumn("Rating", lambda r: r[1], numeric=True),
    ExportColumn("Change", lambda r: r[2], numeric=True),
]
ROWS = [("Huber, Bernd", 1977.0, -3.0), ("=cmd|' /C calc'!A0", 1234.567, None), ("+43 1 234", 1500, 12)]


@pytest.mark.parametrize(("value", "expected"), [
    ("=1+1", "'=1+1"), ("+5", "'+5"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("Huber", "Huber"), ("", ""), (None, ""), ("a=b", "a=b"),
])
def test_safe_text(value, expected):
    assert safe_text(value) == expected


def test_export_number():
    assert export_number(1835.0) == 1835 and isinstance(export_number(1835.0), int)
    assert export_number(1234.567) == 1234.567
    assert export_number(None) is None and export_number("") is None


def test_csv_in_german_uses_semicolons_decimal_commas_and_a_bom():
    with translation.override("de-at"):
        text = "".join(csv_lines(COLUMNS, ROWS))
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))
    assert rows == [
        ["Name", "Rating", "Change"],
        ["Huber, Bernd", "1977", "-3"],
        ["'=cmd|' /C calc'!A0", "1234,567", ""],
        ["'+43 1 234", "1500", "12"],
    ]


def test_csv_in_english_uses_commas_and_decimal_points():
    with translation.override("en"):
        lines = list(csv_lines(COLUMNS, ROWS))
    assert lines[0] == "Name,Rating,Change\r\n"
    assert lines[2] == "'=cmd|' /C calc'!A0,1234.567,\r\n"


def test_csv_keeps_the_language_it_was_asked_in():
    with translation.override("de-at"):
        lines = csv_lines(COLUMNS, ROWS)
    with translation.override("en"):
        assert next(lines).startswith("\ufeffName;")  # read later, written as asked


def test_xlsx_writes_text_as_strings_and_numbers_as_numbers():
    handle = xlsx_file(sheet="Wertungsliste", columns=COLUMNS, rows=ROWS)
    workbook = openpyxl.load_workbook(handle)
    assert workbook.sheetnames == ["Wertungsliste"]
    cells = [cell for row in workbook.active.iter_rows() for cell in row]
    assert not [cell for cell in cells if cell.data_type == "f"]
    assert list(workbook.active.iter_rows(values_only=True)) == [
        ("Name", "Rating", "Change"),
        ("Huber, Bernd", 1977, -3),
        ("=cmd|' /C calc'!A0", 1234.567, None),
        ("+43 1 234", 1500, 12),
    ]
