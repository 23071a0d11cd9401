from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "clubrating.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from clubrating.clubs.merge import member_merge_permission_register

        from .permissions import sees_personal_data

        member_merge_permission_register(sees_personal_data)  # who keeps the register merges
