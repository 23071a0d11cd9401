import datetime
import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.adapters import as_number
from ratings.selectors import list_entries, live_list, pool_list_on
from ratings.services import RatingsError, pool_get
from ratings.services.lists import class_code


class Command(BaseCommand):
    help = "Print a pool's published list (or, with --live, the provisional live list)."

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)
        parser.add_argument("--period", help="the list in force on this day (YYYY-MM-DD)")
        parser.add_argument("--live", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **opts):
        try:
            pool = pool_get(opts["pool"])
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        try:
            day = datetime.date.fromisoformat(opts["period"]) if opts["period"] else None
        except ValueError:
            raise CommandError(
                _("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": opts["period"]}
            ) from None
        if opts["live"]:
            rows = [
                {
                    "rank": e.rank,
                    "name": e.member.full_name,
                    "rating": as_number(e.rating),
                    "change": as_number(e.change),
                    "games": e.games,
                    "markers": "",
                    "class": class_code(pool, e.rating),
                    "provisional": True,
                }
                for e in live_list(pool)
            ]
        else:
            plist = pool_list_on(pool, day)
            if plist is None:
                raise CommandError(
                    _("The pool “%(pool)s” has no published list for that day.") % {"pool": pool.name}
                )
            rows = [
                {
                    "rank": e.rank,
                    "name": e.member.full_name,
                    "rating": as_number(e.rating),
                    "change": as_number(e.change),
                    "games": e.games_count,
                    "markers": e.markers,
                    "class": e.class_code,
                    "start_value": e.start_value,
                }
                for e in list_entries(plist)
            ]
        if opts["json"]:
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1))
            return
        for r in rows:
            change = "" if r["change"] is None else f"{r['change']:+}"
            self.stdout.write(
                f"{r['rank']:>5}  {r['name']:<40} {r['rating']:>8} {change:>6} "
                f"{r['games']:>5} {r['markers']:<4} {r['class']}"
            )
