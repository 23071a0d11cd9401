import datetime
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused
from clubrating.federation.services import fide_download, fide_list_import, month_parse
from clubrating.interchange.commands import FileCommand
from clubrating.interchange.refusals import file_error


class Command(FileCommand):
    help = ("Read FIDE's combined rating list (zip, text or XML file, or an http(s) address) and "
            "print what it changes; with --apply, update the members' FIDE data.")

    def add_arguments(self, parser):
        parser.add_argument("source", help="file or http(s) address")
        parser.add_argument("--apply", action="store_true", help="save the changes (else only the preview)")
        parser.add_argument("--month", default="",
                            help="the list's month, e.g. 2026-11 (default: this month)")

    def handle(self, *args, source, apply, month, **options):
        downloaded = None
        try:
            list_month = month_parse(month) if month else datetime.date.today().replace(day=1)
            if source.lower().startswith(("http://", "https://")):
                downloaded = path = fide_download(url=source)
            else:
                path = Path(source)
                if not path.is_file():
                    try:
                        path.open("rb").close()
                    except OSError as error:
                        raise CommandError(_("Cannot read %(path)s: %(error)s") % {
                            "path": source, "error": file_error(error)}) from None
            report = fide_list_import(path=path, month=list_month, file_name=Path(source).name, apply=apply)
        except Refused as error:
            raise CommandError(str(error)) from None
        finally:
            if downloaded is not None:
                downloaded.unlink(missing_ok=True)
        self.stdout.write(report.summary())
        labels = {
            "standard": _("standard rating changes"), "rapid": _("rapid rating changes"),
            "blitz": _("blitz rating changes"), "titles": _("new titles"),
            "federations": _("changed federations"), "names": _("names that differ"),
            "inactive": _("flagged inactive"), "missing": _("FIDE ID not in the list"),
        }
        counts = report.counts()
        for kind, label in labels.items():
            self.stdout.write(f"{label}: {counts[kind]}")
        if not apply:
            self.stdout.write(_("Nothing was saved; run again with --apply to save."))
