from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "clubrating.leagues"
    label = "leagues"
    verbose_name = _("Team leagues")

    def ready(self) -> None:
        from .member_data import register_parts

        register_parts()  # this app's part of a member's data (``clubrating.clubs.member_data``)
