"""The league's public pages (``public.views``), included in ``clubrating.leagues.urls``."""

from django.urls import path

from . import views as views_public

urlpatterns = [
    path("", views_public.season_list, name="seasons"),
    path("division/<int:pk>/", views_public.division_table, name="division"),
    path("division/<int:pk>/rounds/", views_public.division_rounds, name="division_rounds"),
    path("division/<int:pk>/players/", views_public.division_players, name="division_players"),
    path("division/<int:pk>/team/<int:team_pk>/", views_public.division_team, name="division_team"),
    path("division/<int:pk>/print/", views_public.division_print, name="division_print"),
    path("division/<int:pk>/export.<str:fmt>", views_public.division_export, name="division_export"),
    path("division/<int:pk>/trf/", views_public.division_trf, name="division_trf"),
    path("results/<int:pk>/", views_public.public_match, name="public_match"),
    path("results/<int:pk>/report/", views_public.match_report, name="match_report"),
]
