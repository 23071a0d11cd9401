from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InterchangeConfig(AppConfig):
    name = "clubrating.interchange"
    label = "interchange"
    verbose_name = _("Import and export")
