"""Helpers shared by the interchange commands."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

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
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise CommandError(
            _("Cannot read %(path)s: %(error)s") % {"path": path, "error": error.strerror}
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
