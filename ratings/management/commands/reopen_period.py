import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.models import PeriodState
from ratings.services import RatingsError, period_reopen, pool_get


class Command(BaseCommand):
    help = "Reopen the pool's latest closed period (a reason is required)."

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)
        parser.add_argument("--reason", required=True)
        parser.add_argument("--period", help="a day of the period (default: the latest closed one)")

    def handle(self, *args, **opts):
        try:
            pool = pool_get(opts["pool"])
            periods = pool.periods.filter(state=PeriodState.CLOSED).order_by("-start")
            if opts["period"]:
                day = datetime.date.fromisoformat(opts["period"])
                periods = periods.filter(start__lte=day, end__gte=day)
            period = periods.first()
            if period is None:
                raise RatingsError(_("There is no such closed period."))
            period_reopen(period=period, reason=opts["reason"])
        except ValueError as exc:  # RatingsError is a ValueError, and so is a bad date
            raise CommandError(str(exc)) from None
        self.stdout.write(_("Reopened %(period)s.") % {"period": period})
