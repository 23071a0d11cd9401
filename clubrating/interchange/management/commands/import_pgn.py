from django.core.management.base import CommandError

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.pgn_import import games_import_pgn

from ._common import read_text


class Command(FileCommand):
    help = "Import the games of a PGN file (tournament from the Event headers or --tournament)."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--tournament", help="tournament name (created when missing)")

    def handle(self, *args, path, tournament, **options):
        try:
            report = games_import_pgn(text=read_text(path), tournament=tournament)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.summary())
