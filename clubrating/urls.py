from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

from clubrating.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    # Browsers ask for /favicon.ico whatever the page says; the icon lives with the static files.
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True), name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("members/", include("clubrating.clubs.urls")),
    path("tournaments/", include("clubrating.tournaments.urls")),
    path("ratings/", include("ratings.urls")),
    path("exchange/", include("clubrating.interchange.urls")),
]
