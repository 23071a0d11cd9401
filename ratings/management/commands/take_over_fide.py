from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from ratings.services import RatingsError, pool_get, pool_take_over_fide


class Command(BaseCommand):
    help = (
        "Take FIDE ratings over as first national ratings of the pool's newcomers "
        "(converted to the ÖSB scale after the 2024 transformation): all newcomers with a FIDE "
        "rating, or the members given by --member."
    )

    def add_arguments(self, parser):
        parser.add_argument("--pool", required=True)
        parser.add_argument(
            "--member",
            action="append",
            default=None,
            metavar="ID",
            help="a member's database ID (repeatable); default: every newcomer with a FIDE rating",
        )

    def handle(self, *args, **opts):
        members = None
        if opts["member"] is not None:
            try:
                members = [int(value) for value in opts["member"]]
            except ValueError:
                raise CommandError(_("A member ID is a whole number.")) from None
        try:
            plist = pool_take_over_fide(pool=pool_get(opts["pool"]), members=members)
        except RatingsError as exc:
            raise CommandError(str(exc)) from None
        for row in plist.fide_takeovers.select_related("member"):
            self.stdout.write(
                _("%(name)s: FIDE %(fide)d → %(rating)d")
                % {"name": row.member.full_name, "fide": row.fide_rating, "rating": row.rating}
            )
        self.stdout.write(
            _("Published the list with %(count)d first ratings taken over from FIDE.")
            % {"count": plist.fide_takeovers.count()}
        )
