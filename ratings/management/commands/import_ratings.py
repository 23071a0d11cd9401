from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.formats.detect import CSV, TRF
from ratings.services import RatingsError, pool_get, ratings_import_list


class Command(FileCommand):
    help = "Import a pool's starting list from CSV (id or name + birth_date, rating, games) or a TRF file."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--pool", required=True)
        parser.add_argument("--format", choices=[CSV, TRF], dest="file_format",
                            help="the file's format (default: told from the content)")

    def handle(self, *args, **opts):
        try:
            report = ratings_import_list(
                pool=pool_get(opts["pool"]), path=opts["path"], file_format=opts["file_format"]
            )
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(_("Imported %(count)d ratings.") % {"count": report.imported})
        for line in report.unknown:
            self.stderr.write(_("Not imported (no single matching member): %(row)s") % {"row": line})
