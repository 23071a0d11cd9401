"""CSV and XLSX downloads of tables: streamed, in the language's convention, formula-safe.

Every export of the application (rating lists, standings, …) goes through ``csv_response`` and
``xlsx_response`` with a list of ``ExportColumn``: the rows are read from an iterator and written
as they come, so memory stays flat whatever the list size.

Spreadsheet programs run a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return as a formula (OWASP "CSV Injection"). Every text cell, in CSV and XLSX alike, therefore goes
through ``safe_text``, which puts an apostrophe before such a start: an XLSX string cell is not a
formula when the file is opened, but becomes one as soon as somebody edits it. Numeric columns are
written as numbers (a rating change "−14" becomes -14), never as text, with the decimals their
column states (a tie-break "2,0" on the page is "2,0" in the CSV and 2.0 shown as "2,0" in XLSX).

XLSX sheets have their header row frozen and bold, and column widths from the header and the
first rows. File names come from ``clubrating.core.downloads``.
"""

from __future__ import annotations

import csv
import itertools
import re
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from django.http import FileResponse, StreamingHttpResponse
from django.utils import translation

from clubrating.core.downloads import attachment, download_name
from clubrating.core.formatting import NumberTexts
from ratings.rules.rounding import round_half_away

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EXPORT_FORMATS = ("csv", "xlsx")


@dataclass(frozen=True)
class ExportColumn:
    """One column: its translated header, how to read the value of a row, and its kind; a numeric
    column with ``decimals`` is written with exactly that many (None: as the number is)."""

    header: str
    value: Callable[[Any], Any]
    numeric: bool = False
    decimals: int | None = None


def safe_text(value: Any) -> str:
    """``value`` as text a spreadsheet shows as text, never runs as a formula."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def export_number(value: Any) -> int | float | None:
    """Whole numbers as ``int`` (1835, not 1835.0); None stays empty."""
    if value is None or value == "":
        return None
    if type(value) is int:  # the common case (ranks, years, games), without the float round trip
        return value
    number = float(value)
    return int(number) if number.is_integer() else number


def _german() -> bool:
    return (translation.get_language() or "").startswith("de")


class _Echo:
    """A file-like object whose ``write`` hands the line back (for ``csv.writer``)."""

    def write(self, value: str) -> str:
        return value


def csv_lines(columns: list[ExportColumn], rows: Iterable[Any]) -> Iterator[str]:
    """The CSV text line by line. German: ``;`` and decimal comma (as Excel in Austria reads it),
    with a byte-order mark; otherwise ``,`` and decimal point. The language is the one active
    when this is called, however late the lines are read."""
    german = _german()
    return _csv_lines(columns, rows, german)


# A cell's decimals as the pages write them, but with the "-" a spreadsheet reads as a minus.
_CELL_TEXTS = {True: NumberTexts(","), False: NumberTexts(".")}


def number_text(value: Any, decimals: int | None = None, german: bool = False) -> str:
    """A number as a CSV cell: "1835", "1234,567" (German) or with exactly ``decimals`` ("2,0")."""
    value = export_number(value)
    if value is None:
        return ""
    if decimals is None:
        text = str(value)
        return text.replace(".", ",") if german else text
    return _CELL_TEXTS[german].fixed(round_half_away(value, decimals), decimals)


def _csv_lines(columns: list[ExportColumn], rows: Iterable[Any], german: bool) -> Iterator[str]:
    writer = csv.writer(_Echo(), delimiter=";" if german else ",")

    def number(decimals: int | None) -> Callable[[Any], str]:
        return lambda value: number_text(value, decimals, german)

    # Each column's formatter chosen once, not per cell (tens of thousands of rows).
    cells = [(column.value, number(column.decimals) if column.numeric else safe_text) for column in columns]
    yield ("\ufeff" if german else "") + writer.writerow([safe_text(c.header) for c in columns])
    for row in rows:
        yield writer.writerow([format_cell(value(row)) for value, format_cell in cells])


def _chunks(lines: Iterator[str], size: int = 500) -> Iterator[str]:
    """``size`` lines to a piece: the response writes a piece at a time, not a line."""
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= size:
            yield "".join(batch)
            batch = []
    if batch:
        yield "".join(batch)


def csv_response(*, filename: str, columns: list[ExportColumn], rows: Iterable[Any]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_chunks(csv_lines(columns, rows)), content_type=CSV_TYPE)
    response["Content-Disposition"] = attachment(filename)
    return response


# Characters XML 1.0 does not allow (a spreadsheet cannot hold them either).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/styles.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
        "</Types>"
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
        'Target="styles.xml"/></Relationships>'
    ),
    # Cell formats: 0 plain, 1 the bold header, then numbers with 0, 1, 2 and 3 decimals.
    "xl/styles.xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<numFmts count="2"><numFmt numFmtId="164" formatCode="0.0"/>'
        '<numFmt numFmtId="165" formatCode="0.000"/></numFmts>'
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>'
        '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill>'
        '<fill><patternFill patternType="gray125"/></fill></fills>'
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
        '<cellXfs count="6">'
        '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
        '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
        '<xf numFmtId="1" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
        '<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
        '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
        '</cellXfs>'
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
        '</styleSheet>'
    ),
}
_HEADER_STYLE = 1
_DECIMALS_STYLE = {0: 2, 1: 3, 2: 4, 3: 5}
# Column widths (in characters) from the header and the first rows; never narrower or wider than this.
_WIDTH_ROWS, _MIN_WIDTH, _MAX_WIDTH = 200, 6, 50
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="{name}" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_SHEET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    # The header row stays in view while the list scrolls.
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" '
    'state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
    "<cols>{cols}</cols><sheetData>"
)


def _column_letters(count: int) -> list[str]:
    letters = []
    for index in range(1, count + 1):
        name = ""
        while index:
            index, rest = divmod(index - 1, 26)
            name = chr(65 + rest) + name
        letters.append(name)
    return letters


def _xml_text(text: str) -> str:
    return xml_escape(_NOT_XML.sub("", text))


def _widths(columns: list[ExportColumn], rows: list[Any]) -> list[float]:
    widths = []
    for column in columns:
        texts = [str(column.header)]
        for row in rows:
            value = column.value(row)
            if column.numeric:
                texts.append(number_text(value, column.decimals))
            else:
                texts.append(safe_text(value))
        widest = max(len(text) for text in texts)
        widths.append(min(max(widest + 2, _MIN_WIDTH), _MAX_WIDTH))
    return widths


def xlsx_file(*, sheet: str, columns: list[ExportColumn], rows: Iterable[Any]):
    """The workbook in a temporary file. Its worksheet is written directly as SpreadsheetML
    (ECMA-376), row by row into the compressed part: openpyxl, even in write-only mode, builds a
    cell object per value and took 7-13 s for a 20,000-row list where this takes about one.
    Text goes in as inline strings through ``safe_text``, numbers as numbers with their column's
    number format."""
    letters = _column_letters(len(columns))
    name = re.sub(r"[\\/?*\[\]:]", " ", sheet)[:31] or "Sheet1"
    rows = iter(rows)
    first = list(itertools.islice(rows, _WIDTH_ROWS))
    cols = "".join(
        f'<col min="{index}" max="{index}" width="{width}" customWidth="1"/>'
        for index, width in enumerate(_widths(columns, first), start=1)
    )

    def text_writer(letter: str, style: int) -> Callable[[int, Any], str]:
        styled = f' s="{style}"' if style else ""

        def write(number: int, value: Any) -> str:
            text = safe_text(value)
            if not text:
                return ""
            return (f'<c r="{letter}{number}"{styled} t="inlineStr"><is><t xml:space="preserve">'
                    f"{_xml_text(text)}</t></is></c>")
        return write

    def number_writer(letter: str, style: int) -> Callable[[int, Any], str]:
        styled = f' s="{style}"' if style else ""

        def write(number: int, value: Any) -> str:
            value = export_number(value)
            return "" if value is None else f'<c r="{letter}{number}"{styled}><v>{value!r}</v></c>'
        return write

    # Each column's writer chosen once, not per cell (tens of thousands of rows).
    header = [text_writer(letter, _HEADER_STYLE) for letter in letters]
    cells = [
        (column.value, (number_writer(letter, _DECIMALS_STYLE.get(column.decimals, 0)) if column.numeric
                        else text_writer(letter, 0)))
        for column, letter in zip(columns, letters, strict=True)
    ]

    def row_xml(number: int, row: Any) -> str:
        return f'<row r="{number}">' + "".join(write(number, value(row)) for value, write in cells) + "</row>"

    handle = tempfile.TemporaryFile()
    with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as archive:
        for part, content in _XLSX_PARTS.items():
            archive.writestr(part, content)
        archive.writestr("xl/workbook.xml", _WORKBOOK.format(name=xml_escape(name, {'"': "&quot;"})))
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(_SHEET_HEAD.format(cols=cols).encode())
            titles = "".join(write(1, column.header) for column, write in zip(columns, header, strict=True))
            batch = [f'<row r="1">{titles}</row>']
            for number, row in enumerate(itertools.chain(first, rows), start=2):
                batch.append(row_xml(number, row))
                if len(batch) >= 1000:
                    part.write("".join(batch).encode())
                    batch = []
            part.write(("".join(batch) + "</sheetData></worksheet>").encode())
    handle.seek(0)
    return handle


def xlsx_response(
    *, filename: str, sheet: str, columns: list[ExportColumn], rows: Iterable[Any]
) -> FileResponse:
    handle = xlsx_file(sheet=sheet, columns=columns, rows=rows)
    response = FileResponse(handle, content_type=XLSX_TYPE)
    response["Content-Disposition"] = attachment(filename)
    return response


def export_response(
    fmt: str, *, name: list[Any], sheet: str, columns: list[ExportColumn], rows: Iterable[Any]
):
    """``fmt`` is "csv" or "xlsx"; ``name`` the parts of the file name (``downloads.download_name``)."""
    filename = download_name(*name, extension=fmt)
    if fmt == "csv":
        return csv_response(filename=filename, columns=columns, rows=rows)
    return xlsx_response(filename=filename, sheet=sheet, columns=columns, rows=rows)
