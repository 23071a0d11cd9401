"""XLSX workbooks as CSV text, so that every table import reads one format (``csvtext``).

The first worksheet is read row by row (openpyxl's read-only mode, never the whole sheet as
objects). Each worksheet row becomes one CSV line with every cell quoted, so that the file's
line numbers are the worksheet's row numbers: an error "line 12" is row 12 in the spreadsheet.
A line break inside a cell is a spreadsheet's wrapping, read as a blank. Whole numbers stored as
floats (1650.0) read as whole numbers, dates as ISO dates.
"""

from __future__ import annotations

import csv
import datetime
import io
import zipfile

from .limits import FieldError

__all__ = ["ROWS_MAX", "is_xlsx", "xlsx_to_csv"]

ROWS_MAX = 200_000  # far above a federation's list; a sheet claiming more is refused
_ZIP = b"PK\x03\x04"


def is_xlsx(raw: bytes) -> bool:
    """A zip archive (an XLSX workbook is one), told by its first bytes, never by a file name."""
    return raw.startswith(_ZIP)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time(0) else value.isoformat(" ")
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return " ".join(str(value).replace("\r", "\n").split("\n")).strip()


def xlsx_to_csv(raw: bytes) -> str:
    """The first worksheet of the workbook ``raw`` as CSV text (comma-separated, every cell
    quoted), one line per worksheet row. ``FieldError("xlsx")`` when the bytes are no workbook."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError, EOFError) as error:
        raise FieldError("xlsx", line=0) from error
    except Exception as error:  # noqa: BLE001 - openpyxl raises its own and lxml's errors for damaged parts
        raise FieldError("xlsx", line=0) from error
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise FieldError("empty")
        out = io.StringIO()
        writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
        try:
            # Read-only sheets yield every row from the first, empty ones too: row n is line n.
            for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
                if number > ROWS_MAX:
                    raise FieldError("range", field="row", value=number, low=1, high=ROWS_MAX,
                                     line=number, literal=True)
                values = [_cell(value) for value in row]
                while values and not values[-1]:
                    values.pop()
                if values:
                    writer.writerow(values)
                else:
                    out.write("\n")
        except FieldError:
            raise
        except Exception as error:  # noqa: BLE001 - a damaged sheet: openpyxl's or lxml's errors
            raise FieldError("xlsx", line=0) from error
        return out.getvalue()
    finally:
        book.close()
