from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("", views.member_list, name="member_list"),
    path("new/", views.member_edit, name="member_add"),
    path("<int:pk>/", views.member_detail, name="member_detail"),
    path("<int:pk>/edit/", views.member_edit, name="member_edit"),
    path("<int:pk>/merge/", views.member_merge_view, name="member_merge"),
    path("<int:pk>/privacy/", views.member_privacy, name="member_privacy"),
    path("<int:pk>/notifications/", views.member_notifications, name="member_notifications"),
    path("<int:pk>/data/", views.member_data, name="member_data"),
    path("<int:pk>/erase/", views.member_erase_page, name="member_erase"),
]
