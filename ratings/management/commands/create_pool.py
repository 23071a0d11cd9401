import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _

from clubrating.tournaments.models import GameCategory
from ratings.services import RatingsError, pool_create


def _inactivity(years: int | None) -> int | None | str:
    """The option as pool_create takes it: not given = the rule set's; 0 = never."""
    if years is None:
        return "preset"
    return years or None


class Command(BaseCommand):
    help = "Create a rating pool and open its first period."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--rules", default="oesb-classic")
        parser.add_argument("--category", default=GameCategory.STANDARD)
        parser.add_argument("--start", help="first day (YYYY-MM-DD); default today")
        parser.add_argument("--expectation", default="", help="polynomial or table (default: the rule set's)")
        parser.add_argument(
            "--inactivity-years", type=int, default=None,
            help="remove members without rated games for more than N years (0: never; "
                 "default: 7 for the oesb rule sets, ÖSB TUWO § 27 d, else never)",
        )

    def handle(self, *args, **opts):
        try:
            start = datetime.date.fromisoformat(opts["start"]) if opts["start"] else timezone.localdate()
        except ValueError:
            raise CommandError(
                _("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": opts["start"]}
            ) from None
        try:
            pool = pool_create(
                name=opts["name"],
                rules=opts["rules"],
                category=opts["category"],
                start_date=start,
                expectation=opts["expectation"],
                inactivity_years=_inactivity(opts["inactivity_years"]),
            )
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        period = pool.periods.get()
        self.stdout.write(
            _("Created pool “%(name)s” (%(rules)s), first period %(start)s–%(end)s.")
            % {"name": pool.name, "rules": pool.rules, "start": period.start, "end": period.end}
        )
