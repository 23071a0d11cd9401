from django.urls import path

from . import views

app_name = "interchange"

urlpatterns = [
    path("tournaments/<int:pk>/trf/", views.tournament_trf, name="tournament_trf"),
    path("trf-check/", views.trf_check, name="trf_check"),
    path("pgn/", views.pgn_import, name="pgn_import"),
    path("members/", views.members_import, name="members_import"),
    path("pools/<int:pk>/trf/", views.trf_import, name="trf_import"),
]
