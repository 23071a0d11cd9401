from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.services import RatingsError, pool_get, pool_recalculate


class Command(BaseCommand):
    help = "Rebuild every rating record of a pool from its games."

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)

    def handle(self, *args, **opts):
        try:
            count = pool_recalculate(pool=pool_get(opts["pool"]))
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(_("Rebuilt %(count)d rating records.") % {"count": count})
