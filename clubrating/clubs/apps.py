from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


def _sqlite_fold(sender, connection, **kwargs) -> None:
    # The member search key is folded by Python on SQLite (``clubrating.clubs.search``).
    if connection.vendor == "sqlite":
        from .search import register_sqlite_fold

        register_sqlite_fold(connection.connection)


class ClubsConfig(AppConfig):
    name = "clubrating.clubs"
    label = "clubs"
    verbose_name = _("Clubs and members")

    def ready(self) -> None:
        connection_created.connect(_sqlite_fold, dispatch_uid="clubs-sqlite-fold")
        from .member_data import register_parts

        register_parts()
