import datetime

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from clubrating.clubs.member_data import accounts_past_retention, member_erase
from clubrating.clubs.models import ErasureCause


class Command(BaseCommand):
    help = ("Erase the members whose login was not used for the retention period "
            "(CLUBRATING_ACCOUNT_RETENTION_YEARS); without --apply only list them.")

    def add_arguments(self, parser):
        parser.add_argument("--years", type=int, default=None,
                            help="Retention period in years (default: the setting).")
        parser.add_argument("--apply", action="store_true", help="Erase them (otherwise: list only).")

    def handle(self, *args, **opts):
        years = settings.ACCOUNT_RETENTION_YEARS if opts["years"] is None else opts["years"]
        if years < 0:
            raise CommandError(_("The retention period must be a whole number of years, 0 or more."))
        if years == 0:
            self.stdout.write(_("The retention period is off (0 years): nothing to erase."))
            return
        members = accounts_past_retention(years=years, today=datetime.date.today())
        for member in members:
            self.stdout.write(f"{member.pk}\t{member.full_name}")
        if not opts["apply"]:
            self.stdout.write(_("%(count)d members without a log-in for %(years)d years; run with --apply "
                                "to erase them.") % {"count": len(members), "years": years})
            return
        for member in members:
            member_erase(member=member, by=None, cause=ErasureCause.RETENTION)
        self.stdout.write(_("Erased %(count)d members.") % {"count": len(members)})
