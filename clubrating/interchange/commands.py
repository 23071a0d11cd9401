"""The base of the file commands: a refusal on the command line reads in the site's language.

Django writes a ``CommandError`` as ``CommandError: <message>``; the message is translated, the
frame is not. These commands write ``Fehler: <message>`` (``Error: `` in English) instead, with
the same exit status. ``call_command`` (tests, other code) still gets the ``CommandError``.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _


class FileCommand(BaseCommand):
    def execute(self, *args, **options):
        try:
            return super().execute(*args, **options)
        except CommandError as error:
            if not getattr(self, "_called_from_command_line", False) or options.get("traceback"):
                raise
            self.stderr.write(_("Error: %(message)s") % {"message": error})
            sys.exit(error.returncode)
