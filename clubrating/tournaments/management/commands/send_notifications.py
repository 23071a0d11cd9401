from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from clubrating.tournaments.notifications import notifications_send


class Command(BaseCommand):
    help = "Send the players' e-mail notifications that are due (those that failed before included)."

    def handle(self, *args, **opts):
        sent, failed = notifications_send()
        self.stdout.write(_("%(sent)d e-mails sent, %(failed)d failed (tried again later).")
                          % {"sent": sent, "failed": failed})
