from django.urls import path

from . import views
from .views import entries, hall, registration, teams

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
    path("<int:pk>/progress/", views.tournament_progress, name="progress"),
    path("<int:pk>/evaluation/", views.tournament_evaluation, name="evaluation"),
    path("<int:pk>/print/<str:kind>/", views.tournament_print, name="print"),
    path("<int:pk>/round/<int:number>/", views.round_detail, name="round"),
    path("<int:pk>/round/<int:number>/date/", views.round_date, name="round_date"),
    path("<int:pk>/round/<int:number>/print/", views.round_print, name="round_print"),
    path("<int:pk>/round/<int:number>/results/", views.round_results, name="results"),
    path("<int:pk>/round/<int:number>/results/<int:game_pk>/", views.board_result, name="board_result"),
    path("<int:pk>/round/<int:number>/pairing/<int:game_pk>/", views.pairing_edit, name="pairing_edit"),
    path("<int:pk>/round/<int:number>/pairing/<int:game_pk>/swap/", views.pairing_swap_colours,
         name="pairing_swap"),
    # The director's registration pages and team competitions (views/registration.py, views/teams.py).
    path("<int:pk>/players/manage/", registration.players_manage, name="players_manage"),
    path("<int:pk>/players/withdraw/", registration.player_withdraw, name="player_withdraw"),
    path("<int:pk>/players/bye/", registration.bye_request, name="bye_request"),
    path("<int:pk>/players/guest/", registration.guest_register, name="guest_register"),
    path("<int:pk>/unpair/", registration.round_unpair, name="unpair"),
    path("<int:pk>/teams/", teams.team_standings, name="team_standings"),
    path("<int:pk>/teams/matches/", teams.team_matches, name="team_matches"),
    path("<int:pk>/teams/manage/", teams.teams_manage, name="teams_manage"),
    path("<int:pk>/teams/players/", teams.team_players_assign, name="team_players"),
    path("<int:pk>/teams/pair/", teams.team_round_pair, name="team_pair"),
    path("<int:pk>/teams/match/<int:match_pk>/lineup/<int:team_pk>/", teams.lineup_edit, name="lineup"),
    # Registration and check-in (views/entries.py) and the hall screen (views/hall.py).
    path("<int:pk>/entries/", entries.entries_manage, name="entries"),
    path("<int:pk>/entries/<int:entry_pk>/decide/", entries.entry_decide, name="entry_decide"),
    path("<int:pk>/check-in/", entries.check_in_list, name="check_in"),
    path("<int:pk>/enter/", entries.entry_enter, name="entry_enter"),
    path("<int:pk>/enter/cancel/", entries.entry_cancel, name="entry_cancel"),
    path("<int:pk>/enter/guest/", entries.entry_guest, name="entry_guest"),
    path("<int:pk>/me/check-in/", entries.own_check_in, name="own_check_in"),
    path("<int:pk>/me/skip/", entries.own_skip, name="own_skip"),
    path("<int:pk>/me/leave/", entries.own_leave, name="own_leave"),
    path("<int:pk>/hall/", hall.hall_screen, name="hall"),
    path("game/<int:pk>/", views.game_detail, name="game"),
    path("game/<int:pk>/correct/", views.game_correct, name="game_correct"),
]
