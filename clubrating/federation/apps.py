from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "clubrating.federation"
    label = "federation"
    verbose_name = _("Federation data")

    def ready(self) -> None:
        from .member_data import register_parts

        register_parts()  # this app's part of a member's data (``clubrating.clubs.member_data``)
