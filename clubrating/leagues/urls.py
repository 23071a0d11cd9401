from django.urls import include, path

from . import views, views_director

app_name = "leagues"

urlpatterns = [
    path("captain/", views.captain_home, name="captain_home"),
    path("match/<int:pk>/", views.match_detail, name="match"),
    path("match/<int:pk>/results/", views.match_results, name="match_results"),
    path("match/<int:pk>/confirm/", views.match_confirm, name="match_confirm"),
    path("match/<int:pk>/dispute/", views.match_dispute, name="match_dispute"),
    path("match/<int:pk>/decide/", views.match_decide, name="match_decide"),
    path("match/<int:pk>/lineup/<int:team_pk>/", views.lineup_edit, name="lineup"),
    path("match/<int:pk>/lineup/<int:team_pk>/check/", views.lineup_check, name="lineup_check"),
    path("match/<int:pk>/move/", views_director.match_move, name="match_move"),
    path("match/<int:pk>/ineligible/", views_director.match_ineligible, name="match_ineligible"),
    path("division/<int:pk>/round/<int:number>/", views_director.director_round, name="director_round"),
    path("season/new/", views.season_new, name="season_new"),
    path("season/<int:pk>/setup/", views.season_setup, name="setup"),
    path("division/<int:pk>/schedule/new/", views.division_schedule, name="schedule_new"),
    path("season/<int:pk>/director/", views.director_home, name="director"),
    path("season/<int:pk>/roster/<int:club_pk>/", views.roster, name="roster"),
    # The public pages: table, rounds, players, match reports, exports (``public.urls``).
    path("", include("clubrating.leagues.public.urls")),
]
