"""The test database migrated once and copied for each test process.

Running the migrations takes about 15 s of CPU time (Django rebuilds its model states at every
step), and every test process (pytest-xdist worker) of every run did it again. The first process
now builds a template (SQLite: a file in the temporary directory; PostgreSQL: a database) by
running the migrations exactly as Django's test runner does, and every process copies it
(SQLite's backup, PostgreSQL's ``CREATE DATABASE ... TEMPLATE``). The template is kept and used
again while nothing it was made from changed: its name carries a digest of Django's version, the
database engine, every installed app's migration files and all the project's own code (data
migrations import it), so any such change migrates from scratch again.
"""

import fcntl
import hashlib
import os
import sqlite3
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings
from django.db import connections

ROOT = Path(__file__).resolve().parent.parent
PROJECT_CODE = ("clubrating", "ratings")
PREFIX = "clubrating_test_template_"
# Every run's processes take this lock to build or copy a template, whatever its digest.
LOCK = Path(tempfile.gettempdir()) / "clubrating-test-template.lock"
UNUSED_FOR = 24 * 3600  # seconds after its last use that an SQLite template of other code is removed


def digest(engine: str) -> str:
    """What the migrated schema and its rows depend on."""
    sha = hashlib.sha256(f"{django.__version__}\0{engine}\0".encode())
    files = {path for app in apps.get_app_configs() for path in (Path(app.path) / "migrations").glob("*.py")}
    files |= {path for package in PROJECT_CODE for path in (ROOT / package).rglob("*.py")}
    for path in sorted(files):
        # Paths inside the checkout: checkouts of the same code share a template.
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        sha.update(str(name).encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()[:16]


@contextmanager
def locked():
    with open(LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sqlite_template(name: str) -> str:
    return str(Path(tempfile.gettempdir()) / f"{PREFIX}{name}.sqlite3")


def _exists(connection, template: str) -> bool:
    if connection.vendor == "sqlite":
        return Path(template).exists()
    with connection.creation._nodb_cursor() as cursor:
        return connection.creation._database_exists(cursor, template)


def _build(connection, template: str) -> None:
    """Migrate a new test database under a provisional name, then give it the template's name, so
    that a build cut short never passes for a template."""
    provisional = template.replace(".sqlite3", "-partial.sqlite3") if connection.vendor == "sqlite" \
        else template + "_partial"
    old_name, old_test_name = connection.settings_dict["NAME"], connection.settings_dict["TEST"]["NAME"]
    connection.settings_dict["TEST"]["NAME"] = provisional
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        connection.close()
        connection.settings_dict["TEST"]["NAME"] = old_test_name
        connection.settings_dict["NAME"] = settings.DATABASES[connection.alias]["NAME"] = old_name
    if connection.vendor == "sqlite":
        Path(provisional).replace(template)
        return
    quote = connection.ops.quote_name
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {quote(provisional)} RENAME TO {quote(template)}")


def _drop_others(connection, template: str) -> None:
    """Templates of older code are of no further use. SQLite's are files that every checkout on
    the machine shares a folder for: only those unused for a day go, so that two checkouts of
    different code do not delete each other's template at every run."""
    if connection.vendor == "sqlite":
        stale = time.time() - UNUSED_FOR
        for path in Path(tempfile.gettempdir()).glob(f"{PREFIX}*.sqlite3*"):
            if not str(path).startswith(template) and path.stat().st_mtime < stale:
                path.unlink(missing_ok=True)
        return
    quote = connection.ops.quote_name
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [PREFIX + "%"])
        for (name,) in cursor.fetchall():
            if name != template:
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")


def _copy(connection, template: str, target: str) -> None:
    if connection.vendor == "sqlite":
        os.utime(template)  # in use (see _drop_others)
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(target + suffix).unlink(missing_ok=True)
        source, copy = sqlite3.connect(template), sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()
        return
    quote = connection.ops.quote_name
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(target)}")
        cursor.execute(f"CREATE DATABASE {quote(target)} WITH TEMPLATE {quote(template)}")


def supported() -> bool:
    """One database, on a file or a server (an in-memory SQLite database cannot be copied)."""
    connection = connections["default"]
    if len(settings.DATABASES) != 1:
        return False
    if connection.vendor == "sqlite":
        return not connection.creation.is_in_memory_db(connection.creation._get_test_db_name())
    return connection.vendor == "postgresql"


def setup_databases(*, serialize: bool) -> list:
    """Give the default connection its own test database, copied from the template (built first if
    there is none); returns what ``django.test.utils.teardown_databases`` takes."""
    connection = connections["default"]
    old_name = connection.settings_dict["NAME"]
    target = connection.creation._get_test_db_name()
    name = digest(connection.settings_dict["ENGINE"])
    template = _sqlite_template(name) if connection.vendor == "sqlite" else PREFIX + name
    with locked():
        if not _exists(connection, template):
            _drop_others(connection, template)
            _build(connection, template)
        connection.close()
        _copy(connection, template, target)
    connection.settings_dict["NAME"] = settings.DATABASES[connection.alias]["NAME"] = target
    if serialize:
        connection._test_serialized_contents = connection.creation.serialize_db_to_string()
    connection.ensure_connection()
    return [(connection, old_name, True)]
