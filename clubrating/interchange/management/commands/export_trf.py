from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.refusals import file_error
from clubrating.interchange.trf_export import tournament_export_trf

from ._common import find_tournament


class Command(FileCommand):
    help = "Write a tournament as a FIDE TRF16 file (to standard output without PATH)."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="id or exact name")
        parser.add_argument("path", nargs="?")

    def handle(self, *args, tournament, path, **options):
        text = tournament_export_trf(tournament=find_tournament(tournament))
        if not path:
            self.stdout.write(text, ending="")
            return
        try:
            with open(path, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
        except OSError as error:
            raise CommandError(
                _("Cannot write %(path)s: %(error)s") % {"path": path, "error": file_error(error)}
            ) from None
        self.stdout.write(_("Written %(path)s.") % {"path": path})
