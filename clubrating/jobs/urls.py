from django.urls import path

from . import views

app_name = "jobs"

urlpatterns = [
    path("<int:pk>/", views.job_detail, name="detail"),
    path("<int:pk>/status/", views.job_status, name="status"),
    path("<int:pk>/file/", views.job_output, name="output"),
    path("<int:pk>/again/", views.job_restart, name="restart"),
]
