"""One live server and one demo club for the crawls of a test module that only read.

A ``live_server`` test is a transactional test: the database is emptied after it (on PostgreSQL a
TRUNCATE of every table) and the next test copies the demo club in again. Crawls that only read do
not need that: ``SharedSite`` copies the club in once for the module, serves it from a server of
its own, and after each test compares every table with what it held before (``unchanged``), so a
crawl that wrote anything fails instead of handing its changes to the next one. A test that writes
on purpose after its crawl (an import's preview starts a job) calls ``restore`` — the teardown does
too whenever something changed — and the module ends with the database emptied, as a
transactional test leaves it.
"""

from collections.abc import Callable

from django.core.management import call_command
from django.db import connection

from tests.demo_data import demo_restore

# What logging in writes (a session, the user's last login, django-axes' record of the login) is
# not the site's data.
NOT_DATA = {"django_session": None, "axes_accesslog": None, "auth_user": {"last_login"}}


def fingerprint() -> dict[str, list[tuple]]:
    """Every row of every table (sorted), but for ``NOT_DATA``."""
    quote = connection.ops.quote_name
    rows = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            left_out = NOT_DATA.get(table, set())
            if left_out is None:
                continue
            cursor.execute(f"SELECT * FROM {quote(table)} WHERE 1 = 0")
            columns = [c[0] for c in cursor.description if c[0] not in left_out]
            cursor.execute(f"SELECT {', '.join(quote(c) for c in columns)} FROM {quote(table)}")
            rows[table] = sorted(cursor.fetchall(), key=repr)
    return rows


def changes(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> list[str]:
    """The tables whose rows differ, with how many rows were added and removed."""
    found = []
    for table in sorted(before.keys() | after.keys()):
        old, new = set(before.get(table, [])), set(after.get(table, []))
        if old != new:
            found.append(f"{table}: +{len(new - old)} −{len(old - new)} rows")
    return found


class SharedSite:
    """The demo club copied in (``prepare`` adds what the tests need on top and returns it), served
    by a live server of its own until ``close``."""

    def __init__(self, snapshot, prepare: Callable[[], dict]):
        from pytest_django.live_server_helper import LiveServer

        self.snapshot, self.prepare = snapshot, prepare
        self.restore()
        self.server = LiveServer("localhost")
        self.server._live_server_modified_settings.enable()
        self.url = self.server.url

    def restore(self) -> None:
        demo_restore(self.snapshot)
        self.data = self.prepare()
        self.before = fingerprint()

    def unchanged(self) -> list[str]:
        """What was written since the club was copied in (nothing, for a crawl)."""
        return changes(self.before, fingerprint())

    def close(self) -> None:
        self.server._live_server_modified_settings.disable()
        self.server.stop()
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False,
                     inhibit_post_migrate=False)
