from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubrating.core.backup import BackupRefused, database_backup


class Command(BaseCommand):
    help = ("Write a consistent backup of the whole database to a file while the site runs "
            "(SQLite: online backup API; PostgreSQL: pg_dump -Fc).")

    def add_arguments(self, parser):
        parser.add_argument("output", help="the backup file to write")
        parser.add_argument("--force", action="store_true", help="overwrite the file if it exists")
        parser.add_argument("--database", default="default", help="the database alias (default: default)")

    def handle(self, *args, **options):
        try:
            path = database_backup(output=options["output"], database=options["database"],
                                   force=options["force"])
        except BackupRefused as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(_("Backup written: %(path)s (%(size)d bytes).")
                                             % {"path": path, "size": path.stat().st_size}))
