"""CSV and XLSX downloads of tables: streamed, in the language's convention, formula-safe.

Every export of the application (rating lists, standings, …) goes through ``csv_response`` and
``xlsx_response`` with a list of ``ExportColumn``: the rows are read from an iterator and written
as they come, so memory stays flat whatever the list size.

Spreadsheet programs run a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return as a formula (OWASP "CSV Injection"). Text cells such as names or clubs therefore get a
leading apostrophe in CSV and are written as explicit strings in XLSX; numeric columns are
written as numbers (a rating change "−14" becomes -14), never as text.
"""

from __future__ import annotations

import csv
import re
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from django.http import FileResponse, StreamingHttpResponse
from django.utils import translation

from clubrating.core.pdf import safe_filename

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EXPORT_FORMATS = ("csv", "xlsx")


@dataclass(frozen=True)
class ExportColumn:
    """One column: its translated header, how to read the value of a row, and its kind."""

    header: str
    value: Callable[[Any], Any]
    numeric: bool = False


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


def _csv_lines(columns: list[ExportColumn], rows: Iterable[Any], german: bool) -> Iterator[str]:
    writer = csv.writer(_Echo(), delimiter=";" if german else ",")

    def number(value: Any) -> str:
        value = export_number(value)
        if value is None:
            return ""
        return str(value).replace(".", ",") if german else str(value)

    # Each column's formatter chosen once, not per cell (tens of thousands of rows).
    cells = [(column.value, number if column.numeric else safe_text) for column in columns]
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
    response["Content-Disposition"] = f'attachment; filename="{safe_filename(filename)}"'
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
        'Target="worksheets/sheet1.xml"/></Relationships>'
    ),
}
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="{name}" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_SHEET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
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


def xlsx_file(*, sheet: str, columns: list[ExportColumn], rows: Iterable[Any]):
    """The workbook in a temporary file. Its worksheet is written directly as SpreadsheetML
    (ECMA-376), row by row into the compressed part: openpyxl, even in write-only mode, builds a
    cell object per value and took 7-13 s for a 20,000-row list where this takes about one.
    Text goes in as inline strings (never a formula, whatever it starts with), numbers as numbers."""
    letters = _column_letters(len(columns))
    cells = [(column.value, column.numeric, letter) for column, letter in zip(columns, letters, strict=True)]
    name = re.sub(r"[\\/?*\[\]:]", " ", sheet)[:31] or "Sheet1"

    def text_cell(reference: str, value: Any) -> str:
        text = "" if value is None else str(value)
        if not text:
            return ""
        return f'<c r="{reference}" t="inlineStr"><is><t xml:space="preserve">{_xml_text(text)}</t></is></c>'

    def row_xml(number: int, values: list[tuple[Any, bool, str]]) -> str:
        parts = [f'<row r="{number}">']
        for value, numeric, letter in values:
            if numeric:
                value = export_number(value)
                if value is not None:
                    parts.append(f'<c r="{letter}{number}"><v>{value!r}</v></c>')
            else:
                parts.append(text_cell(f"{letter}{number}", value))
        parts.append("</row>")
        return "".join(parts)

    handle = tempfile.TemporaryFile()
    with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as archive:
        for part, content in _XLSX_PARTS.items():
            archive.writestr(part, content)
        archive.writestr("xl/workbook.xml", _WORKBOOK.format(name=xml_escape(name, {'"': "&quot;"})))
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(_SHEET_HEAD.encode())
            header = [(c.header, False, letter) for c, letter in zip(columns, letters, strict=True)]
            batch = [row_xml(1, header)]
            for number, row in enumerate(rows, start=2):
                batch.append(row_xml(number, [(value(row), numeric, letter)
                                              for value, numeric, letter in cells]))
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
    return FileResponse(handle, as_attachment=True, filename=safe_filename(filename), content_type=XLSX_TYPE)


def export_response(fmt: str, *, filename: str, sheet: str, columns: list[ExportColumn], rows: Iterable[Any]):
    """``fmt`` is "csv" or "xlsx"; ``filename`` without its extension."""
    if fmt == "csv":
        return csv_response(filename=f"{filename}.csv", columns=columns, rows=rows)
    return xlsx_response(filename=f"{filename}.xlsx", sheet=sheet, columns=columns, rows=rows)
