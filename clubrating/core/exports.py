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
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

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

    yield ("\ufeff" if german else "") + writer.writerow([safe_text(c.header) for c in columns])
    for row in rows:
        yield writer.writerow([
            number(c.value(row)) if c.numeric else safe_text(c.value(row)) for c in columns
        ])


def csv_response(*, filename: str, columns: list[ExportColumn], rows: Iterable[Any]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(csv_lines(columns, rows), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{safe_filename(filename)}"'
    return response


def xlsx_file(*, sheet: str, columns: list[ExportColumn], rows: Iterable[Any]):
    """The workbook in a temporary file (openpyxl's write-only mode: rows go to disk as written)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    workbook = Workbook(write_only=True)
    worksheet = workbook.create_sheet(title=sheet[:31])

    def text_cell(value: Any) -> str | WriteOnlyCell:
        text = "" if value is None else str(value)
        if not text.startswith("="):
            return text  # openpyxl writes any other text as a string
        cell = WriteOnlyCell(worksheet, value=text)
        cell.data_type = "s"  # a string although it starts with "=": never a formula
        return cell

    worksheet.append([text_cell(c.header) for c in columns])
    for row in rows:
        worksheet.append([
            export_number(c.value(row)) if c.numeric else text_cell(c.value(row)) for c in columns
        ])
    handle = tempfile.TemporaryFile()
    workbook.save(handle)
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
