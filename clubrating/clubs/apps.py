from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubrating.clubs"
    label = "clubs"
    verbose_name = _("Clubs and members")
