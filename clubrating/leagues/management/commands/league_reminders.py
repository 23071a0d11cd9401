"""Remind the home captains by e-mail of a match result still missing before its deadline.
Run from cron every quarter of an hour (docs/operating.md); each match is reminded once."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from clubrating.leagues.reminders import result_reminders_send


class Command(BaseCommand):
    help = "E-mail the home captains of a match without its result as its deadline nears (once a match)."

    def handle(self, *args, **options):
        count = result_reminders_send()
        self.stdout.write(_("%(count)d result reminders sent.") % {"count": count})
