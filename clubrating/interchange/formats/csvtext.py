"""CSV tables as every CSV import reads them.

Line endings CR, CRLF and LF are all accepted, a byte order mark is dropped, and the delimiter
(comma, semicolon or tab) is taken from the header line. A header line with none of them is read
as a single column, so that the importer can name the columns it misses.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

__all__ = ["DELIMITERS", "CsvError", "CsvRow", "CsvTable", "read_csv"]

DELIMITERS = ",;\t"


class CsvError(ValueError):
    """A CSV text that cannot be read; ``line`` and ``column`` are 1-based (0 = unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message, line, column)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line and self.column:
            return f"line {self.line}, column {self.column}: {self.message}"
        if self.line:
            return f"line {self.line}: {self.message}"
        return self.message


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


def _delimiter(header: str) -> str:
    try:
        return csv.Sniffer().sniff(header, delimiters=DELIMITERS).delimiter
    except csv.Error:
        return ","  # no delimiter in the header line: one column


def read_csv(text: str) -> CsvTable:
    """The table of ``text``: a header line, then one row per record; blank lines are skipped.

    Cells beyond the header's columns are ignored; missing cells read as ""."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise CsvError("the file is empty")
    delimiter = _delimiter(lines[first])
    reader = csv.reader(io.StringIO("\n".join(lines[first:])), delimiter=delimiter)
    offset = first  # lines skipped before the header
    try:
        header = next(reader)
        columns = [name.strip().lower() for name in header]
        table = CsvTable(columns=columns, delimiter=delimiter)
        start = reader.line_num + 1
        for cells in reader:
            if any(cell.strip() for cell in cells):
                values = {name: cell.strip() for name, cell in zip(columns, cells, strict=False) if name}
                table.rows.append(CsvRow(line=start + offset, values=values))
            start = reader.line_num + 1
    except csv.Error as error:
        raise CsvError(str(error), reader.line_num + offset) from None
    return table
