from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.services import RatingsError, period_close, pool_get


class Command(BaseCommand):
    help = (
        "Close the pool's open period, publish its list and open the next period. Before the "
        "period's last day only with --early and --reason (the period then ends today); never "
        "before it starts."
    )

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)
        parser.add_argument("--early", action="store_true",
                            help="close before the period's last day; it then ends today")
        parser.add_argument("--reason", default="",
                            help="why the period is closed early (kept with the list)")

    def handle(self, *args, **opts):
        try:
            plist = period_close(pool=pool_get(opts["pool"]), early=opts["early"], reason=opts["reason"])
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            _("Published the list valid from %(day)s with %(count)d entries.")
            % {"day": plist.valid_from, "count": plist.entries.count()}
        )
