from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.models import GameCategory
from ratings.services import RatingsError, pool_get


class Command(BaseCommand):
    help = "Import a FIDE TRF16 file as a tournament with its players, rounds and results."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--pool", help="rating pool that rates the tournament")
        parser.add_argument("--name", help="tournament name (default: line 012 of the file)")
        parser.add_argument("--category", default=GameCategory.STANDARD, choices=GameCategory.values)
        parser.add_argument("--unrated", action="store_true", help="the tournament is not rated")

    def handle(self, *args, path, pool, name, category, unrated, **options):
        try:
            rating_pool = pool_get(pool) if pool else None
        except RatingsError as error:
            raise CommandError(str(error)) from None
        try:
            report = tournament_import_trf(
                text=Path(path), name=name, category=category, rated=not unrated, pool=rating_pool
            )
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.summary())
        if rating_pool is not None:
            self.stdout.write(_("Rated in the pool %(pool)s: %(records)d rating records.")
                              % {"pool": rating_pool.name, "records": report.rating_records})
        for start_rank, reason in report.refused:
            self.stdout.write(
                _("Not imported: player %(rank)d (%(reason)s)") % {"rank": start_rank, "reason": reason}
            )
        return None
