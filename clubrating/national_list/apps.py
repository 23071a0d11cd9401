from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NationalListConfig(AppConfig):
    name = "clubrating.national_list"
    label = "national_list"
    verbose_name = _("National rating list")

    def ready(self) -> None:
        from .member_data import register_parts

        register_parts()  # this app's part of a member's data (``clubrating.clubs.member_data``)
