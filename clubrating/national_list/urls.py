from django.urls import path

from . import views

app_name = "national_list"

urlpatterns = [
    path("", views.index, name="index"),
    path("columns/", views.mapping, name="mapping"),
    path("apply/", views.apply, name="apply"),
    path("<int:pk>/starting-list/", views.start_list, name="start_list"),
]
