"""The API under /api/v1/ and the embeddable pages under /embed/ (included by the root URLs)."""

from django.urls import path

from . import embeds
from .api import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("embed/clubs/<int:pk>/top/", embeds.club_top, name="embed_club_top"),
    path("embed/tournaments/<int:pk>/standings/", embeds.tournament_standings, name="embed_standings"),
]
