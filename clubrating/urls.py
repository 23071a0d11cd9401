from django.contrib import admin
from django.urls import include, path

from clubrating.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("clubrating.accounts.urls")),
    path("members/", include("clubrating.clubs.urls")),
    path("tournaments/", include("clubrating.tournaments.urls")),
    path("ratings/", include("ratings.urls")),
    path("exchange/", include("clubrating.interchange.urls")),
]
