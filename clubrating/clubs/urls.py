from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("", views.member_list, name="member_list"),
    path("<int:pk>/", views.member_detail, name="member_detail"),
    path("<int:pk>/privacy/", views.member_privacy, name="member_privacy"),
]
