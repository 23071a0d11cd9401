from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "clubrating.federation"
    label = "federation"
    verbose_name = _("Federation data")
