from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NationalListConfig(AppConfig):
    name = "clubrating.national_list"
    label = "national_list"
    verbose_name = _("National rating list")
