from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.league_trf import division_import_trf
from clubrating.leagues.models import LeagueSeason

from ._common import read_text


class Command(FileCommand):
    help = "Import a league division's teams and schedule from the TRF file of a team round robin."

    def add_arguments(self, parser):
        parser.add_argument("season", help="the league season's exact name")
        parser.add_argument("division", help="the new division's name")
        parser.add_argument("path")

    def handle(self, *args, season, division, path, **options):
        found = LeagueSeason.objects.filter(name=season).first()
        if found is None:
            raise CommandError(_("There is no league season called %(name)s.") % {"name": season})
        text = read_text(path)
        try:
            imported = division_import_trf(season=found, name=division, text=text)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            _("Division %(division)s: %(teams)d teams, %(rounds)d rounds.")
            % {
                "division": imported.name,
                "teams": imported.teams.count(),
                "rounds": imported.tournament.rounds.count(),
            }
        )
