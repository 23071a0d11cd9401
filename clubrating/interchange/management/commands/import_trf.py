from pathlib import Path

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.models import GameCategory


def _pool(name: str):
    """The rating pool of that name, while the ratings app may not have pools yet."""
    try:
        model = apps.get_model("ratings", "RatingPool")
    except LookupError:
        raise CommandError(_("Rating pools are not available in this installation.")) from None
    pool = model.objects.filter(name=name).first()
    if pool is None:
        raise CommandError(_("Unknown rating pool %(name)s.") % {"name": name})
    return pool


class Command(BaseCommand):
    help = "Import a FIDE TRF16 file as a tournament with its players, rounds and results."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--pool", help="rating pool that rates the tournament")
        parser.add_argument("--name", help="tournament name (default: line 012 of the file)")
        parser.add_argument("--category", default=GameCategory.STANDARD, choices=GameCategory.values)
        parser.add_argument("--unrated", action="store_true", help="the tournament is not rated")

    def handle(self, *args, path, pool, name, category, unrated, **options):
        if pool:
            _pool(pool)  # linking the tournament to the pool is the ratings app's service
        try:
            report = tournament_import_trf(text=Path(path), name=name, category=category, rated=not unrated)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.summary())
        for start_rank, reason in report.refused:
            self.stdout.write(
                _("Not imported: player %(rank)d (%(reason)s)") % {"rank": start_rank, "reason": reason}
            )
        return None
