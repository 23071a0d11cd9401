from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from clubrating.site.demo import demo_seed


class Command(BaseCommand):
    help = "Create the demo club (idempotent): clubs, members, tournaments, games and demo logins."

    def handle(self, *args, **options):
        report = demo_seed()
        self.stdout.write(self.style.SUCCESS(_("Demo club ready: %(report)s") % {"report": report}))
