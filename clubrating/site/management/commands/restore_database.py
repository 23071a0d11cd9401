from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubrating.core.backup import BackupRefused, database_restore


class Command(BaseCommand):
    help = ("Restore a backup written by backup_database into the database (stop the web server and "
            "the job workers first). Refuses a database that holds tables unless --force is given.")

    def add_arguments(self, parser):
        parser.add_argument("backup", help="the backup file to read")
        parser.add_argument("--force", action="store_true",
                            help="replace the content of a database that is not empty")
        parser.add_argument("--database", default="default", help="the database alias (default: default)")

    def handle(self, *args, **options):
        try:
            database_restore(source=options["backup"], database=options["database"], force=options["force"])
        except BackupRefused as exc:
            raise CommandError(str(exc)) from None
        message = _("Backup restored from %(path)s.") % {"path": options["backup"]}
        self.stdout.write(self.style.SUCCESS(message))
