"""Helpers shared by the interchange commands."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.formats.text import read_text as formats_read_text
from clubrating.interchange.refusals import file_error
from clubrating.tournaments.models import Tournament


def find_tournament(value: str) -> Tournament:
    """A tournament by id or exact name; CommandError when none or several match."""
    if value.isdigit():
        found = Tournament.objects.filter(pk=int(value)).first()
        if found:
            return found
    matches = list(Tournament.objects.filter(name=value)[:2])
    if not matches:
        raise CommandError(_("No tournament %(value)s (give its id or exact name).") % {"value": value})
    if len(matches) > 1:
        raise CommandError(_("Several tournaments are named %(value)s; give the id.") % {"value": value})
    return matches[0]


def read_text(path: str) -> str:
    """The file's text, decoded as uploads are; CommandError when it cannot be read."""
    try:
        return formats_read_text(path)
    except OSError as error:
        raise CommandError(
            _("Cannot read %(path)s: %(error)s") % {"path": path, "error": file_error(error)}
        ) from None
