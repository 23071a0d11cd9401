"""Who may see and do what: visitors, members, officials, rating officers, administrators.

Roles are Django groups named in settings (OFFICIALS_GROUP, RATING_OFFICERS_GROUP); superusers
may do everything. The decorators share one rule: an anonymous visitor who is refused is
sent to the login page (he may have an account), a logged-in user without the role gets 403.
"""

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from clubrating.clubs.models import Club
from clubrating.clubs.selectors import home_club


def _in_group(user, group_name: str) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    # Cached on the user object: a page asks several times per request.
    cache = getattr(user, "_clubrating_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._clubrating_groups = cache
    return group_name in cache


def is_official(user) -> bool:
    return _in_group(user, settings.OFFICIALS_GROUP)


def is_rating_officer(user) -> bool:
    return _in_group(user, settings.RATING_OFFICERS_GROUP)


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


def member_page_allowed(user, member) -> bool:
    """A member sees his own page; officials, rating officers and staff see all pages;
    other logged-in users and visitors see member pages only if the rating lists are public."""
    if getattr(user, "is_authenticated", False):
        if user.is_staff or is_official(user) or is_rating_officer(user):
            return True
        if member.user_id is not None and member.user_id == user.pk:
            return True
    return ratings_public()


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

