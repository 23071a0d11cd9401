"""The shared export helpers: language conventions, numbers as numbers, no formula ever."""

import csv
import io

import openpyxl
import pytest
from django.utils import translation

from clubrating.core.exports import ExportColumn, csv_lines, export_number, number_text, safe_text, xlsx_file

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
    # Text as the CSV writes it: a string cell starting with "=" turns into a formula when edited.
    assert list(workbook.active.iter_rows(values_only=True)) == [
        ("Name", "Rating", "Change"),
        ("Huber, Bernd", 1977, -3),
        ("'=cmd|' /C calc'!A0", 1234.567, None),
        ("'+43 1 234", 1500, 12),
    ]


def test_xlsx_has_a_frozen_bold_header_and_column_widths():
    workbook = openpyxl.load_workbook(xlsx_file(sheet="S", columns=COLUMNS, rows=ROWS))
    sheet = workbook.active
    assert sheet.freeze_panes == "A2"
    assert [sheet.cell(1, column).font.b for column in (1, 2, 3)] == [True, True, True]
    # The widest text of each column plus two: "'=cmd|' /C calc'!A0" (19), "1234.567" (8), "Change" (6).
    assert [sheet.column_dimensions[letter].width for letter in "ABC"] == [21, 10, 8]


def test_columns_with_decimals_keep_them_in_csv_and_xlsx():
    columns = [ExportColumn("KS", lambda r: r, numeric=True, decimals=1),
               ExportColumn("SB", lambda r: r, numeric=True, decimals=2)]
    with translation.override("de-at"):
        text = "".join(csv_lines(columns, [2.0, 2.5]))
    assert text.removeprefix("\ufeff").splitlines() == ["KS;SB", "2,0;2,00", "2,5;2,50"]
    with translation.override("en"):
        assert list(csv_lines(columns, [2.0]))[1] == "2.0,2.00\r\n"
    sheet = openpyxl.load_workbook(xlsx_file(sheet="S", columns=columns, rows=[2.0])).active
    assert (sheet["A2"].value, sheet["A2"].number_format) == (2, "0.0")
    assert (sheet["B2"].value, sheet["B2"].number_format) == (2, "0.00")


def test_xlsx_columns_past_z_and_text_xml_cannot_hold():
    columns = [ExportColumn(f"C{i}", lambda r, i=i: r[i % 2], numeric=i % 2 == 1) for i in range(28)]
    rows = [("Bell\x07 & <Co> \"A\"", 7)]
    handle = xlsx_file(sheet="Liste: 2026/Q1 [alt]", columns=columns, rows=rows)
    workbook = openpyxl.load_workbook(handle)
    assert workbook.sheetnames == ["Liste  2026 Q1  alt "]
    sheet = workbook.active
    assert sheet["AA1"].value == "C26" and sheet["AB2"].value == 7
    assert sheet["A2"].value == "Bell & <Co> \"A\"" and sheet["B2"].value == 7


def test_xlsx_leaves_empty_values_empty():
    handle = xlsx_file(sheet="S", columns=COLUMNS, rows=[("", None, "")])
    assert list(openpyxl.load_workbook(handle).active.iter_rows(values_only=True)) == [
        ("Name", "Rating", "Change"),
    ]


@pytest.mark.parametrize(("value", "decimals", "de", "en"), [
    (1835, None, "1835", "1835"), (1835.0, None, "1835", "1835"), (1234.567, None, "1234,567", "1234.567"),
    (2, 1, "2,0", "2.0"), (4.5, 1, "4,5", "4.5"), (2.675, 2, "2,68", "2.68"), (-7.25, 1, "-7,3", "-7.3"),
    (-0.04, 1, "-0,0", "-0.0"), (12345.6, 1, "12345,6", "12345.6"), (2.5, 0, "3", "3"), (None, 1, "", ""),
])
def test_number_text(value, decimals, de, en):
    # Spreadsheets read the ASCII minus, not the pages' "−"; never digit-grouped.
    assert number_text(value, decimals, german=True) == de
    assert number_text(value, decimals, german=False) == en
