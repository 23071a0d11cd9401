from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.members_import import members_import_csv

from ._common import read_text


class Command(FileCommand):
    help = ("Import members from CSV (last_name, first_name, sex, birth_date, club, national_id, "
            "fide_id, fide_rating, title, email, phone); existing members (name + birth date) are updated.")

    def add_arguments(self, parser):
        parser.add_argument("path")

    def handle(self, *args, path, **options):
        try:
            report = members_import_csv(text=read_text(path))
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.summary())
        if report.duplicates:
            rows = ", ".join(str(row) for row, _first in report.duplicates)
            self.stdout.write(_("Duplicate rows: %(rows)s") % {"rows": rows})
