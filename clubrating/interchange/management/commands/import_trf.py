from django.core.management.base import CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.interchange.commands import FileCommand
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.models import GameCategory
from ratings.models import RatingRecord
from ratings.services import RatingsError, pool_get
from ratings.services.pools import tournament_rate_in_pool

from ._common import read_text


class Command(FileCommand):
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
        if rating_pool is not None and unrated:
            raise CommandError(_("An unrated tournament cannot be rated in the pool %(pool)s.")
                               % {"pool": rating_pool.name})
        text = read_text(path)
        records = 0
        try:
            # One transaction: a refusal by the ratings (a closed period) undoes the import too.
            with transaction.atomic():
                # The pool rates the tournament before its results are recorded (and rated).
                report = tournament_import_trf(
                    text=text, name=name, category=category, rated=not unrated,
                    before_results=None if rating_pool is None else (
                        lambda tournament: tournament_rate_in_pool(tournament=tournament, pool=rating_pool)))
                if rating_pool is not None:
                    records = RatingRecord.objects.filter(
                        pool=rating_pool, game__round__tournament=report.tournament).count()
        except (ImportRefused, RatingsError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.summary())
        if rating_pool is not None:
            self.stdout.write(_("Rated in the pool %(pool)s: %(records)d rating records.")
                              % {"pool": rating_pool.name, "records": records})
        for start_rank, _line, reason in report.refused:
            self.stdout.write(
                _("Not imported: player %(rank)d (%(reason)s)") % {"rank": start_rank, "reason": reason}
            )
        return None
