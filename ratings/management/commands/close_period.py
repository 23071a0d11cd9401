from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.services import RatingsError, period_close, pool_get


class Command(BaseCommand):
    help = "Close the pool's open period, publish its list and open the next period."

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)

    def handle(self, *args, **opts):
        try:
            plist = period_close(pool=pool_get(opts["pool"]))
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            _("Published the list valid from %(day)s with %(count)d entries.")
            % {"day": plist.valid_from, "count": plist.entries.count()}
        )
