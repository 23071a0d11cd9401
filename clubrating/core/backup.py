"""Backing up and restoring the whole database while the site runs.

SQLite: the online backup API (``sqlite3.Connection.backup``) copies the database from one read
transaction of its own connection, so the copy is the state of one moment even while officials
save results (WAL mode lets them write meanwhile). PostgreSQL: ``pg_dump -Fc``, which reads
everything in one snapshot transaction; ``pg_restore`` puts it back in one transaction.

The backup is one file. A restore refuses a database that already holds tables unless told to
overwrite it (``force``), and changes nothing when the backup cannot be read.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.core.cache import cache
from django.db import connections
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

# Where Debian and Ubuntu install the PostgreSQL programs of each major version.
_PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"


class BackupRefused(Refused):
    """A backup or restore that cannot be carried out; nothing was written or changed."""


def database_backup(*, output: str | os.PathLike, database: str = "default", force: bool = False) -> Path:
    """Write a consistent backup of ``database`` to ``output`` (refused if it exists, unless ``force``).

    The file appears only when the backup is complete: it is written beside ``output`` under a
    temporary name first."""
    target = Path(output)
    if target.exists() and not force:
        raise BackupRefused(_("The file %(path)s exists already; choose another name or overwrite it with "
                              "--force.") % {"path": target})
    if not target.parent.is_dir():
        raise BackupRefused(_("The folder %(path)s does not exist.") % {"path": target.parent})
    settings_dict = connections[database].settings_dict
    vendor = connections[database].vendor
    handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    try:
        if vendor == "sqlite":
            _sqlite_backup(settings_dict, Path(partial))
        elif vendor == "postgresql":
            _run(_pg_program("pg_dump"), settings_dict, ["--format=custom", f"--file={partial}"],
                 with_database=True)
        else:
            raise BackupRefused(_("Backups are made of SQLite and PostgreSQL databases only, not of "
                                  "%(vendor)s.") % {"vendor": vendor})
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return target


def database_restore(*, source: str | os.PathLike, database: str = "default", force: bool = False) -> None:
    """Put the backup ``source`` into ``database``: refused if the database already holds tables,
    unless ``force`` (then its content is replaced). The site (web server and job workers)
    should be stopped meanwhile; the cache is cleared afterwards, since it holds pages of the
    database's former content."""
    path = Path(source)
    if not path.is_file():
        raise BackupRefused(_("The backup %(path)s does not exist.") % {"path": path})
    connection = connections[database]
    name = connection.settings_dict["NAME"]
    if connection.introspection.table_names() and not force:
        raise BackupRefused(_("The database %(name)s is not empty. Restore into a new, empty database, or "
                              "replace its content with --force.") % {"name": name})
    connection.close()  # a restore that drops tables must not wait for this process's own session
    if connection.vendor == "sqlite":
        _sqlite_restore(path, connection.settings_dict)
    elif connection.vendor == "postgresql":
        pg_restore = _pg_program("pg_restore")
        _run(pg_restore, connection.settings_dict, ["--list", str(path)], with_database=False,
             refusal=_("%(path)s is not a backup of a PostgreSQL database (pg_dump -Fc).") % {"path": path})
        parameters = ["--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges"]
        if force:
            parameters += ["--clean", "--if-exists"]
        _run(pg_restore, connection.settings_dict, [*parameters, f"--dbname={name}", str(path)],
             with_database=False)
    else:
        raise BackupRefused(_("Backups are made of SQLite and PostgreSQL databases only, not of "
                              "%(vendor)s.") % {"vendor": connection.vendor})
    cache.clear()


def _sqlite_backup(settings_dict: dict, partial: Path) -> None:
    source = sqlite3.connect(str(settings_dict["NAME"]), timeout=20)
    target = sqlite3.connect(str(partial))
    try:
        source.backup(target)  # all pages in one step: one read transaction, one moment
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
    finally:
        target.close()
        source.close()


def _sqlite_restore(path: Path, settings_dict: dict) -> None:
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        try:
            source.execute("SELECT count(*) FROM django_migrations").fetchone()
        except sqlite3.DatabaseError:
            raise BackupRefused(_("%(path)s is not a backup of a ClubRating SQLite database.")
                                % {"path": path}) from None
        target = sqlite3.connect(str(settings_dict["NAME"]), timeout=20)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def _pg_program(name: str) -> str:
    """The path of ``pg_dump`` or ``pg_restore``: on the PATH, else of the newest PostgreSQL version
    installed under /usr/lib/postgresql (a dump needs a program at least as new as the server)."""
    found = shutil.which(name)
    if found:
        return found
    def version(path: str) -> int:
        folder = Path(path).parent.parent.name  # /usr/lib/postgresql/15/bin/pg_dump -> 15
        return int(folder) if folder.isdigit() else 0

    candidates = sorted(glob.glob(f"{_PG_BIN_GLOB}/{name}"), key=version)
    if candidates:
        return candidates[-1]
    raise BackupRefused(_("The PostgreSQL program %(program)s was not found. Install the PostgreSQL client "
                          "programs (Debian: apt-get install postgresql-client) or put %(program)s on the "
                          "PATH.") % {"program": name})


def _run(program: str, settings_dict: dict, parameters: list[str], *, with_database: bool,
         refusal: str = "") -> None:
    """Run a PostgreSQL program against the database of ``settings_dict``; the password goes in its
    environment, never on its command line (where other users of the machine could read it)."""
    from django.db.backends.postgresql.client import DatabaseClient

    _args, env = DatabaseClient.settings_to_cmd_args_env(settings_dict, [])  # password, SSL files
    command = [program]
    for option, key in (("--username", "USER"), ("--host", "HOST"), ("--port", "PORT")):
        if settings_dict.get(key):
            command.append(f"{option}={settings_dict[key]}")
    command += parameters
    if with_database:
        command.append(settings_dict.get("NAME") or "postgres")
    result = subprocess.run(command, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise BackupRefused(refusal or _("%(program)s failed: %(detail)s") % {
            "program": Path(program).name, "detail": detail[-1] if detail else result.returncode})
