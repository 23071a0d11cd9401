"""Account services: what happens around a login beyond Django's own views."""

from axes.utils import reset as axes_reset


def login_lockout_clear(*, username: str) -> int:
    """Forgets the failed logins recorded for ``username``; returns how many records went.

    Called once the owner has proved control of the account by a password reset link: the new
    password must work at once, not only after the cool-off of the lockout.
    """
    return axes_reset(username=username)
