"""Errors of the pure file formats as translated refusals, the same for every importer."""

from __future__ import annotations

from datetime import date

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .errors import ImportRefused
from .formats.csvtext import CsvError
from .formats.limits import FieldError, check_text
from .formats.pgn import PgnError
from .formats.trf import TrfError


def _shown(value):
    """Dates in the UI's format (22.11.2026 in German)."""
    return date_format(value, "SHORT_DATE_FORMAT") if isinstance(value, date) else value


def problem_message(problem: FieldError, line: int | None = None) -> str:
    """``Line n: ...`` in the active language; the file's own column names stay as they are."""
    line = line or problem.line
    text = problem.render(_, _shown)
    return _("Line %(line)d: %(message)s") % {"line": line, "message": text} if line else text


def field_refused(problem: FieldError, line: int | None = None) -> ImportRefused:
    return ImportRefused(problem_message(problem, line), line=line or problem.line or None,
                         field=problem.field)


def trf_refused(error: TrfError) -> ImportRefused:
    """A value or pairing the checks refuse reads ``Line n: ...``; a file the reader cannot
    read at all says so."""
    if error.problem is not None:
        return field_refused(error.problem, error.line_no)
    return ImportRefused(_("Cannot read the TRF file: %(error)s") % {"error": error},
                         line=error.line_no or None)


def pgn_refused(error: PgnError) -> ImportRefused:
    """A game's problem reads ``Game n (line m, White – Black): ...``; a control character in
    the text, ``Line n: ...`` as in every other file."""
    if error.problem is not None and error.game is None:
        return field_refused(error.problem)
    return ImportRefused(error.render(_), line=error.line or None,
                         field=error.problem.field if error.problem is not None else "")


def csv_refused(error: CsvError | FieldError) -> ImportRefused:
    if isinstance(error, FieldError):
        return field_refused(error)
    return ImportRefused(_("The CSV file cannot be read: %(error)s") % {"error": error},
                         line=error.line or None)


def text_checked(text: str) -> str:
    """``text`` unless it holds a control character (a NUL byte, a binary file): refused."""
    try:
        check_text(text)
    except FieldError as problem:
        raise field_refused(problem) from None
    return text


def csv_column(name: str) -> str:
    """A CSV column as the messages name it."""
    return _("column “%(name)s”") % {"name": name}
