from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "clubrating.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from .member_data import register_parts

        register_parts()  # this app's part of a member's data (``clubrating.clubs.member_data``)
