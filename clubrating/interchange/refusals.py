"""Errors of the pure file formats as translated refusals, the same for every importer."""

from __future__ import annotations

import errno
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


def trf_message(error: TrfError) -> str:
    """A line's problem reads ``Line n: ...``; a file the reader cannot read at all says so."""
    if error.line_no:
        return problem_message(error.problem, error.line_no)
    return _("Cannot read the TRF file: %(error)s") % {"error": problem_message(error.problem)}


def trf_refused(error: TrfError) -> ImportRefused:
    return ImportRefused(trf_message(error), line=error.line_no or None, field=error.problem.field)


def pgn_refused(error: PgnError) -> ImportRefused:
    """A game's problem reads ``Game n (line m, White – Black): ...``; a control character in
    the text, ``Line n: ...`` as in every other file."""
    if error.problem is not None and error.game is None:
        return field_refused(error.problem)
    return ImportRefused(error.render(_), line=error.line or None,
                         field=error.problem.field if error.problem is not None else "")


def csv_refused(error: CsvError | FieldError) -> ImportRefused:
    """A value the importers refuse reads ``Line n: ...``; text that is not CSV says so first."""
    if isinstance(error, CsvError):
        return ImportRefused(_("The CSV file cannot be read: %(error)s") % {"error": problem_message(error)},
                             line=error.line or None)
    return field_refused(error)


def text_checked(text: str) -> str:
    """``text`` unless it holds a control character (a NUL byte, a binary file): refused."""
    try:
        check_text(text)
    except FieldError as problem:
        raise field_refused(problem) from None
    return text


def file_error(error: OSError) -> str:
    """Why a file cannot be read or written, in the active language (the system's own words,
    ``strerror``, are in the server's locale) for the usual reasons."""
    reasons = {
        errno.ENOENT: _("there is no such file"),
        errno.EACCES: _("permission denied"),
        errno.EPERM: _("permission denied"),
        errno.EISDIR: _("it is a directory"),
    }
    return reasons.get(error.errno, error.strerror or str(error))


def csv_column(name: str) -> str:
    """A CSV column as the messages name it."""
    return _("column “%(name)s”") % {"name": name}


def fide_list_refused(error: FieldError) -> ImportRefused:
    """A line of FIDE's rating list reads ``Line n: ...``; a file that is no list says so."""
    if error.line:
        return field_refused(error)
    return ImportRefused(_("The FIDE rating list cannot be read: %(error)s")
                         % {"error": problem_message(error)})
