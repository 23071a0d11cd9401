from django.utils.functional import SimpleLazyObject

from clubrating.accounts.permissions import is_club_admin, is_official, is_rating_officer
from clubrating.clubs.selectors import home_club


def club(request):
    """The own club (header of every page and printout) and the roles the navigation needs."""
    user = getattr(request, "user", None)
    return {
        # Read when a template shows it: a board's fragment after a save does not.
        "home_club": SimpleLazyObject(home_club),
        "user_is_official": bool(user) and is_official(user),
        "user_is_rating_officer": bool(user) and is_rating_officer(user),
        "user_is_club_admin": bool(user) and is_club_admin(user),
    }
