from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/players/", views.tournament_players, name="players"),
    path("<int:pk>/players/register/", views.players_register, name="register"),
    path("<int:pk>/pairings/", views.tournament_pairings, name="pairings"),
    path("<int:pk>/pair/", views.round_pair, name="pair"),
    path("<int:pk>/standings/", views.tournament_standings, name="standings"),
    path("<int:pk>/standings/export/<str:fmt>/", views.standings_export, name="standings_export"),
    path("<int:pk>/crosstable/", views.tournament_crosstable, name="crosstable"),
    path("<int:pk>/evaluation/", views.tournament_evaluation, name="evaluation"),
    path("<int:pk>/print/<str:kind>/", views.tournament_print, name="print"),
    path("<int:pk>/round/<int:number>/", views.round_detail, name="round"),
    path("<int:pk>/round/<int:number>/print/", views.round_print, name="round_print"),
    path("<int:pk>/round/<int:number>/results/", views.round_results, name="results"),
    path("<int:pk>/round/<int:number>/results/<int:game_pk>/", views.board_result, name="board_result"),
    path("<int:pk>/round/<int:number>/pairing/<int:game_pk>/", views.pairing_edit, name="pairing_edit"),
    path("<int:pk>/round/<int:number>/pairing/<int:game_pk>/swap/", views.pairing_swap_colours,
         name="pairing_swap"),
    path("game/<int:pk>/", views.game_detail, name="game"),
    path("game/<int:pk>/correct/", views.game_correct, name="game_correct"),
]
