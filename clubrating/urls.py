from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from clubrating.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("members/", include("clubrating.clubs.urls")),
    path("tournaments/", include("clubrating.tournaments.urls")),
    path("ratings/", include("ratings.urls")),
    path("exchange/", include("clubrating.interchange.urls")),
]
