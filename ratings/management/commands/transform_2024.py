from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.services import RatingsError, pool_get, pool_transform_2024


class Command(BaseCommand):
    help = "Apply the ÖSB 2024 transformation to the pool's published list (once)."

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)

    def handle(self, *args, **opts):
        try:
            plist = pool_transform_2024(pool=pool_get(opts["pool"]))
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            _("Published the transformed list with %(count)d entries.") % {"count": plist.entries.count()}
        )
