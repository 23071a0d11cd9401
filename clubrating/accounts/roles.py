"""The roles the site knows: each is a Django group whose name is fixed in settings and created by
the accounts app's migration. Pages show the translated label, never the group's name."""

from django.conf import settings
from django.utils.translation import gettext_lazy as _

# (group name, label, what it may do): the order of the Rollen page.
ROLES = [
    (settings.OFFICIALS_GROUP, _("Official"),
     _("Creates tournaments, registers players, pairs rounds, enters and corrects results.")),
    (settings.RATING_OFFICERS_GROUP, _("Rating officer"),
     _("Keeps the rating pools: closes and reopens periods, imports starting lists.")),
    (settings.CLUB_ADMINS_GROUP, _("Club administrator"),
     _("Sets the club up, gives these roles and keeps the member register.")),
]
ROLE_NAMES = [name for name, _label, _text in ROLES]


def role_label(name: str) -> str:
    return next((str(label) for group, label, _text in ROLES if group == name), name)
