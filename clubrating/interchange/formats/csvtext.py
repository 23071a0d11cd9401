"""CSV tables as every CSV import reads them.

Line endings CR, CRLF and LF are all accepted, a byte order mark is dropped, and the delimiter
(comma, semicolon or tab) is taken from the header line. A header line with none of them is read
as a single column (``sniffed`` False), so that the importer can say so and name the columns it
misses. Rows are refused, with their line, where a quote left open would merge the following
lines into one field, where they hold more fields than the header names, or where a row is
separated by another delimiter than the header (it would read as one field). Errors carry a code
and parameters (``formats.limits.MESSAGES``), never the csv module's English words.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from .limits import FieldError, Label

__all__ = ["DELIMITERS", "CsvError", "CsvRow", "CsvTable", "read_csv"]

DELIMITERS = ",;\t"


class CsvError(FieldError):
    """A text that cannot be read as CSV; ``line`` is 1-based (0 = unknown)."""


# The csv module's errors (its English words) -> our codes.
_CSV_ERRORS = (
    (re.compile(r"expected after"), "csv_quote"),
    (re.compile(r"unexpected end of data"), "csv_end"),
    (re.compile(r"field larger than field limit"), "csv_field_size"),
)


def _csv_error(error: csv.Error, line: int, delimiter: str) -> CsvError:
    text = str(error)
    for pattern, code in _CSV_ERRORS:
        if pattern.search(text):
            if code == "csv_field_size":
                return CsvError(code, line=line, max=csv.field_size_limit())
            return CsvError(code, line=line, delimiter=_shown(delimiter))
    return CsvError("csv_syntax", line=line)


def _shown(delimiter: str) -> str:
    return Label("tab") if delimiter == "\t" else delimiter


@dataclass
class CsvRow:
    line: int  # the file line the row starts on
    values: dict[str, str]  # lower-case column name -> stripped value ("" when missing)

    def get(self, column: str) -> str:
        return self.values.get(column, "")


@dataclass
class CsvTable:
    columns: list[str]  # lower-case, stripped, in file order
    delimiter: str
    rows: list[CsvRow] = field(default_factory=list)
    sniffed: bool = True  # False: the header line has no delimiter and was read as one column


def _delimiter(header: str) -> str | None:
    try:
        return csv.Sniffer().sniff(header, delimiters=DELIMITERS).delimiter
    except csv.Error:
        # The sniffer gives up on some headers that do hold a delimiter: take the most frequent.
        counts = {d: header.count(d) for d in DELIMITERS}
        best = max(counts, key=counts.get)
        return best if counts[best] else None


def _mixed(raw: str, delimiter: str, cells: int, columns: int) -> str | None:
    """The other delimiter a row is separated by, if any: split by it, the row has more fields
    than by the header's, and either all the header's columns or, read by the header's, it is one
    field (a row "Maier,Karl" under "last_name;first_name;birth_date")."""
    for other in DELIMITERS:
        if other != delimiter and other in raw:
            try:
                count = len(next(csv.reader([raw], delimiter=other)))
            except csv.Error:
                continue
            if count > cells and (count >= columns or cells == 1):
                return other
    return None


def _check_row(cells: list[str], columns: list[str], line: int, end: int, sniffed: bool,
               raw: str = "", delimiter: str = ",") -> None:
    if sniffed and len(cells) < len(columns) and end == line:
        other = _mixed(raw, delimiter, len(cells), len(columns))
        if other is not None:
            raise FieldError("csv_mixed", line=line, found=_shown(other), delimiter=_shown(delimiter))
    if end > line and any("\n" in cell for cell in cells):
        # No imported field spans lines: this is a quote left open, swallowing the rows below.
        raise FieldError("line_break", line=line, end=end)
    extra = [cell for cell in cells[len(columns):] if cell.strip()]
    if extra and sniffed:  # without a delimiter in the header the importer says so instead
        used = len(columns) + max(i for i, cell in enumerate(cells[len(columns):], 1) if cell.strip())
        raise FieldError("extra_cells", line=line, count=used, columns=len(columns))


def read_csv(text: str) -> CsvTable:
    """The table of ``text``: a header line, then one row per record; blank lines are skipped.

    Empty cells beyond the header's columns are ignored; missing cells read as "". Raises
    CsvError for text the csv module cannot read and FieldError for a refused row."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise CsvError("empty")
    delimiter = _delimiter(lines[first])
    sniffed = delimiter is not None
    delimiter = delimiter or ","
    reader = csv.reader(io.StringIO("\n".join(lines[first:])), delimiter=delimiter, strict=True)
    offset = first  # lines skipped before the header
    start = 1
    try:
        header = next(reader)
        columns = [name.strip().lower() for name in header]
        table = CsvTable(columns=columns, delimiter=delimiter, sniffed=sniffed)
        start = reader.line_num + 1
        for cells in reader:
            # A blank line reads as no cells: tested first, as a file may hold millions of them.
            if cells and any(cell.strip() for cell in cells):
                raw = "\n".join(lines[start + offset - 1:reader.line_num + offset])
                _check_row(cells, columns, start + offset, reader.line_num + offset, sniffed, raw,
                           delimiter)
                values = {name: cell.strip() for name, cell in zip(columns, cells, strict=False) if name}
                table.rows.append(CsvRow(line=start + offset, values=values))
            start = reader.line_num + 1
    except StopIteration:
        raise CsvError("empty") from None
    except csv.Error as error:
        if reader.line_num > start:  # a quote opened on the row's first line runs on
            raise FieldError("line_break", line=start + offset, end=reader.line_num + offset) from None
        raise _csv_error(error, reader.line_num + offset, delimiter) from None
    return table
