"""manage.py import_national_list FILE [--apply] [--mapping field=column,…] [--date YYYY-MM-DD]

Without ``--apply`` the preview's figures are printed and nothing changes. Without
``--mapping`` the columns the site remembers are used (else guessed from the header names)."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused
from clubrating.core.preview import dry_run
from clubrating.interchange.commands import FileCommand
from clubrating.interchange.refusals import file_error
from clubrating.national_list.mapping import FIELDS, mapping_initial
from clubrating.national_list.services import national_file_table, national_file_text, national_list_import


def _mapping(value: str) -> dict[str, str]:
    columns = {}
    for part in filter(None, (p.strip() for p in value.split(","))):
        field, sep, column = part.partition("=")
        field = field.strip()
        if not sep or field not in FIELDS:
            raise CommandError(_("“%(part)s” is not field=column (fields: %(fields)s).")
                               % {"part": part, "fields": ", ".join(FIELDS)})
        columns[field] = column.strip().lower()
    return columns


def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(_("“%(value)s” is not a date like 2026-10-01.") % {"value": value}) from None


class Command(FileCommand):
    help = ("Import the national rating list (CSV or XLSX), matched by national ID. Without --apply "
            "only the preview's figures are printed.")

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--apply", action="store_true", help="save the list (default: preview only)")
        parser.add_argument("--mapping", default="",
                            help="columns as field=column, comma-separated; fields: " + ", ".join(FIELDS))
        parser.add_argument("--date", default="", help="the list's date, YYYY-MM-DD (default: today)")

    def handle(self, *args, path, **options):
        list_date = _date(options["date"]) if options["date"] else datetime.date.today()
        try:
            raw = Path(path).read_bytes()
        except OSError as error:
            raise CommandError(
                _("Cannot read %(path)s: %(error)s") % {"path": path, "error": file_error(error)}) from None
        try:
            text = national_file_text(raw)
            columns = _mapping(options["mapping"]) or mapping_initial(national_file_table(text=text).columns)

            def run():
                return national_list_import(text=text, columns=columns, list_date=list_date,
                                            file_name=Path(path).name).plain()

            report = run() if options["apply"] else dry_run(run)
        except Refused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report["summary"] if options["apply"] else report["preview"])
        counts = report["counts"]
        figures = [
            (_("Rows"), "rows"), (_("Members matched"), "matched"), (_("Rating changes"), "changes"),
            (_("New on the list"), "new"), (_("Unknown national IDs"), "unknown"),
            (_("Members not in the list"), "missing"), (_("Invalid rows"), "invalid"),
        ]
        for label, key in figures:
            self.stdout.write(f"{label}: {counts[key]}")
        for line in report["invalid"]:
            self.stderr.write(line)
