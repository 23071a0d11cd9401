import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.models import PeriodState
from ratings.services import RatingsError, period_reopen, pool_get


def _day(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(_("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": text}) from None


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
                day = _day(opts["period"])
                periods = periods.filter(start__lte=day, end__gte=day)
            period = periods.first()
            if period is None:
                raise RatingsError(_("There is no such closed period."))
            period_reopen(period=period, reason=opts["reason"])
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(_("Reopened %(period)s.") % {"period": period})
