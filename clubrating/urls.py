from django.contrib import admin
from django.urls import include, path

from clubrating.accounts import views as account_views
from clubrating.site import setup as site_setup
from clubrating.site import views as site_views

urlpatterns = [
    path("", site_views.home, name="home"),
    path("setup/", site_setup.setup_page, name="setup"),
    path("favicon.ico", site_views.favicon, name="favicon"),
    # Under this name the admin login offers "Forgotten your password?": the site's reset pages.
    path("admin/password-reset/", account_views.PasswordResetView.as_view(),
         name="admin_password_reset"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("clubrating.accounts.urls")),
    path("members/", include("clubrating.clubs.urls")),
    path("tournaments/", include("clubrating.tournaments.urls")),
    path("leagues/", include("clubrating.leagues.urls")),
    path("ratings/", include("ratings.urls")),
    path("exchange/", include("clubrating.interchange.urls")),
    path("jobs/", include("clubrating.jobs.urls")),
    path("federation/", include("clubrating.federation.urls")),
    path("national-list/", include("clubrating.national_list.urls")),
    # The public read API (/api/v1/) and the embeddable lists and standings (/embed/).
    path("", include("clubrating.api.urls")),
]
