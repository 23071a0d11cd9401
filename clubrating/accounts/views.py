"""Login, logout, password change and password reset: Django's auth views with the site's templates."""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.shortcuts import render

from clubrating.accounts.services import login_lockout_clear
from clubrating.clubs.selectors import home_club


class PasswordResetView(auth_views.PasswordResetView):
    """The reset mail names the own club (as every page's header does), not the bare host name."""

    def form_valid(self, form):
        club = home_club()
        if club:
            self.extra_email_context = {"site_name": club.name}
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Setting a new password through the mailed link also lifts a login lockout of the account."""

    def form_valid(self, form):
        response = super().form_valid(form)
        login_lockout_clear(username=self.user.get_username())
        return response


def lockout(request, original_response=None, credentials=None):
    """The page a locked-out login gets (status 429 Too Many Requests), for the site and the admin."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "registration/lockout.html", context, status=429)
