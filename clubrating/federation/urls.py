from django.urls import path

from . import views

app_name = "federation"

urlpatterns = [
    path("fide/", views.fide_lookup, name="fide_lookup"),
    path("fide/import/", views.fide_import, name="fide_import"),
    path("fide/lists/<int:year>-<int:month>/", views.fide_list_detail, name="fide_list"),
    path("fide/<int:fide_id>/", views.fide_player, name="fide_player"),
    path("fide/<int:fide_id>/add/", views.fide_player_add, name="fide_player_add"),
    path("fide/<int:fide_id>/follow/", views.fide_player_follow, name="fide_player_follow"),
]
