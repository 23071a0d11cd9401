"""Who may see and do what: visitors, members, officials, rating officers, administrators.

Roles are Django groups named in settings (OFFICIALS_GROUP, RATING_OFFICERS_GROUP,
CLUB_ADMINS_GROUP), created by the accounts app's migration and given on the Rollen page
(``clubrating.accounts.roles``); superusers may do everything. The decorators share one rule:
an anonymous visitor who is refused is sent to the login page (he may have an account), a
logged-in user without the role gets 403.
"""

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from clubrating.clubs.models import Club
from clubrating.clubs.privacy import Audience, member_page_visible
from clubrating.clubs.selectors import home_club
from clubrating.core.db import plain_rows


def _in_group(user, group_name: str) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    # Cached on the user object: a page asks several times per request.
    cache = getattr(user, "_clubrating_groups", None)
    if cache is None:
        cache = {name for (name,) in plain_rows(_GROUPS_SQL, [user.pk])}
        user._clubrating_groups = cache
    return group_name in cache


# The user's groups, as ``user.groups`` holds them: every page of an official asks (prepared on
# PostgreSQL; the ORM took longer to build the query than the database to answer).
_GROUPS_SQL = (
    f"SELECT g.name FROM {Group._meta.db_table} AS g "
    f"JOIN {User.groups.through._meta.db_table} AS ug ON ug.group_id = g.id WHERE ug.user_id = %s"
)


def is_official(user) -> bool:
    return _in_group(user, settings.OFFICIALS_GROUP)


def is_rating_officer(user) -> bool:
    return _in_group(user, settings.RATING_OFFICERS_GROUP)


def is_club_admin(user) -> bool:
    """Club administrators (and superusers): they give the roles and set the club up."""
    return _in_group(user, settings.CLUB_ADMINS_GROUP)


def is_official_or_staff(user) -> bool:
    """Officials, and staff (who keep the member register)."""
    return is_official(user) or (
        getattr(user, "is_authenticated", False) and user.is_active and user.is_staff
    )


def _home_club() -> Club | None:
    return home_club()


def tournaments_public() -> bool:
    """Without a home club nothing is configured yet; the model default (public) applies."""
    club = _home_club()
    return True if club is None else club.public_tournaments


def ratings_public() -> bool:
    club = _home_club()
    return True if club is None else club.public_ratings


def can_view_tournaments(user) -> bool:
    return getattr(user, "is_authenticated", False) or tournaments_public()


def can_view_ratings(user) -> bool:
    return getattr(user, "is_authenticated", False) or ratings_public()


def sees_personal_data(user) -> bool:
    """Officials, rating officers, club administrators and staff: the audience that keeps the
    member register."""
    return getattr(user, "is_authenticated", False) and user.is_active and (
        user.is_staff or is_official(user) or is_rating_officer(user) or is_club_admin(user))


def audience_for(user, member=None) -> Audience:
    """The privacy audience (``clubrating.clubs.privacy``) of ``user`` looking at ``member``
    (or at a list of many members, without one)."""
    if sees_personal_data(user):
        return Audience.OFFICIAL
    if not getattr(user, "is_authenticated", False):
        return Audience.VISITOR
    if member is not None and member.user_id is not None and member.user_id == user.pk:
        return Audience.SELF
    return Audience.MEMBER


def birth_years_public() -> bool:
    club = _home_club()
    return False if club is None else club.public_birth_years


def member_page_allowed(user, member) -> bool:
    """A member sees his own page; officials, rating officers and staff see all pages;
    other logged-in users and visitors see member pages only if the rating lists are public
    and the member's profile is not restricted (his choice, or a minor without consent)."""
    audience = audience_for(user, member)
    if audience >= Audience.SELF:
        return True
    return ratings_public() and member_page_visible(member, audience=audience)


def _refuse(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _role_required(check: Callable[[object], bool]):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not check(request.user):
                return _refuse(request)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


official_required = _role_required(is_official)
official_required.__doc__ = "Officials only: anonymous -> login page, others -> 403."
rating_officer_required = _role_required(is_rating_officer)
rating_officer_required.__doc__ = "Rating officers only: anonymous -> login page, others -> 403."
public_tournaments_required = _role_required(can_view_tournaments)
public_tournaments_required.__doc__ = "Logged in, or anyone if the home club's tournaments are public."
public_ratings_required = _role_required(can_view_ratings)
public_ratings_required.__doc__ = "Logged-in users, or everyone if the home club's rating lists are public."

club_admin_required = _role_required(is_club_admin)
club_admin_required.__doc__ = "Club administrators only: anonymous -> login page, others -> 403."
register_keepers_required = _role_required(sees_personal_data)
register_keepers_required.__doc__ = ("Officials, rating officers, club administrators and staff (who keep "
                                     "the member register).")
