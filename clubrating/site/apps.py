from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SiteConfig(AppConfig):
    """The site on top of the apps: the home page, the demo data, what every request and page
    needs (the own club, the language)."""

    name = "clubrating.site"
    label = "site"
    verbose_name = _("Site")
