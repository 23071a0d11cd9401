from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from .member_data import register_parts

        register_parts()  # the ratings' part of a member's data (``clubrating.clubs.member_data``)
