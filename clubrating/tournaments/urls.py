from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/round/<int:number>/", views.round_detail, name="round"),
    path("game/<int:pk>/", views.game_detail, name="game"),
]
