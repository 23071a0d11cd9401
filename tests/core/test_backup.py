"""``backup_database`` and ``restore_database`` on the database the tests run on (SQLite, or
PostgreSQL when DATABASE_URL names one): a pool with rated games, closed periods and live records
is backed up, restored into a fresh database by ``manage.py restore_database``, and every rating
there equals a recalculation (``manage.py recalculate`` run on the restored database)."""

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.utils import load_backend
from django.utils import translation

from ratings.models import ListEntry, PoolMember, PublishedList, RatingRecord
from ratings.services import period_close
from tests.ratings.services.scenario import build, play
from tests.ratings.services.test_recalc import FIELDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.db_specific]

ROOT = Path(__file__).resolve().parents[2]
LIVE = ("member_id", "rating", "games_count", "live_rating", "live_change", "live_games", "pending_games")
ENTRY = ("list_id", "member_id", "club_id", "rank", "rating", "previous_rating", "change", "games_count",
         "period_games", "markers", "class_code", "start_value")


def ratings(database) -> tuple:
    """Every rating record, live rating and published list entry of the database behind the
    connection ``database``, as its rows hold them (the queries are the ORM's)."""
    def rows(queryset) -> list:
        sql, params = queryset.query.sql_with_params()
        with database.cursor() as cursor:
            cursor.execute(sql, params)
            return sorted(cursor.fetchall())

    return (
        rows(RatingRecord.objects.values_list("pool__name", *FIELDS)),
        rows(PoolMember.objects.values_list("pool__name", *LIVE)),
        rows(PublishedList.objects.values_list("pool__name", "kind", "valid_from", "superseded")),
        rows(ListEntry.objects.values_list(*ENTRY)),
    )


def database_url(settings_dict: dict) -> str:
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings_dict['NAME']}"
    credentials = quote(settings_dict["USER"] or "", safe="")
    if settings_dict.get("PASSWORD"):
        credentials += ":" + quote(settings_dict["PASSWORD"], safe="")
    return (f"postgres://{credentials}@{settings_dict['HOST'] or 'localhost'}:{settings_dict['PORT'] or 5432}"
            f"/{settings_dict['NAME']}")


def manage(*args: str, settings_dict: dict) -> subprocess.CompletedProcess:
    """``manage.py`` in a process of its own on the database ``settings_dict``, as an administrator
    would run it."""
    ours = ("DJANGO_", "CLUBRATING_", "DATABASE_")
    environ = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    environ.update(CLUBRATING_ENV_FILE="/nonexistent/.env", CLUBRATING_TESTING="1", DJANGO_DEBUG="1",
                   DATABASE_URL=database_url(settings_dict))
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environ, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def fresh_database(tmp_path):
    """A new, empty database beside the test database (no tables): its settings and a connection
    to it of its own (not among Django's connections, whose other aliases the test may not use);
    dropped afterwards."""
    name = f"clubrating_restored_{uuid.uuid4().hex[:12]}"
    settings_dict = {**connection.settings_dict}
    if connection.vendor == "sqlite":
        settings_dict["NAME"] = str(tmp_path / f"{name}.sqlite3")
    else:
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        settings_dict["NAME"] = name
    restored = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, alias="restored")
    yield settings_dict, restored
    restored.close()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.fixture
def rated_pool():
    """A closed period and live results after it, newcomers pending."""
    pool, _rated, _newcomers, first, second, rng = build(seed=5)
    play(first, rng)
    period_close(pool=pool)
    play(second, rng)
    return pool


@pytest.fixture
def small_pool():
    """A few rated games."""
    pool, _rated, _newcomers, first, _second, rng = build(seed=5)
    play(first[:6], rng)
    return pool


@pytest.mark.slow
def test_a_restored_backup_holds_every_rating_and_equals_a_recalculation(rated_pool, fresh_database,
                                                                         tmp_path):
    settings_dict, restored = fresh_database
    original = ratings(connection)
    assert len(original[0]) > 100 and len(original[2]) == 2  # the start list and the closed period's list
    backup = tmp_path / "clubrating.backup"

    call_command("backup_database", str(backup), verbosity=0)

    done = manage("restore_database", str(backup), settings_dict=settings_dict)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"Sicherung aus {backup} wiederhergestellt."
    assert ratings(restored) == original
    restored.close()  # the recalculation below rewrites the records
    recalculated = manage("recalculate", "--pool", rated_pool.name, settings_dict=settings_dict)
    assert recalculated.returncode == 0, recalculated.stderr
    assert ratings(restored) == original


def test_a_restore_refuses_a_database_that_is_not_empty(small_pool, tmp_path):
    backup = tmp_path / "clubrating.backup"
    call_command("backup_database", str(backup), verbosity=0)
    records = RatingRecord.objects.count()
    with translation.override("de-at"), pytest.raises(CommandError) as refused:
        call_command("restore_database", str(backup), verbosity=0)
    assert str(refused.value) == (
        f"Die Datenbank {connection.settings_dict['NAME']} ist nicht leer. Stellen Sie die Sicherung in "
        "einer neuen, leeren Datenbank wieder her oder ersetzen Sie ihren Inhalt mit --force."
    )
    assert RatingRecord.objects.count() == records


def test_a_restore_with_force_replaces_the_content(small_pool, tmp_path):
    original = ratings(connection)
    backup = tmp_path / "clubrating.backup"
    call_command("backup_database", str(backup), verbosity=0)
    RatingRecord.objects.all().delete()
    PoolMember.objects.update(live_rating=None)
    call_command("restore_database", str(backup), "--force", verbosity=0)
    assert ratings(connection) == original


def test_a_backup_does_not_overwrite_a_file_unless_told(small_pool, tmp_path):
    backup = tmp_path / "clubrating.backup"
    backup.write_bytes(b"older backup")
    with translation.override("de-at"), pytest.raises(CommandError) as refused:
        call_command("backup_database", str(backup), verbosity=0)
    assert str(refused.value) == (f"Die Datei {backup} gibt es schon; wählen Sie einen anderen Namen oder "
                                  "überschreiben Sie sie mit --force.")
    assert backup.read_bytes() == b"older backup"
    call_command("backup_database", str(backup), "--force", verbosity=0)
    assert backup.read_bytes() != b"older backup"
    assert [p.name for p in tmp_path.iterdir()] == ["clubrating.backup"]  # no partial file left behind


def test_a_file_that_is_no_backup_is_refused_and_changes_nothing(fresh_database, tmp_path):
    settings_dict, restored = fresh_database
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"PGDMP? no: just some bytes\n" * 40)
    refused = manage("restore_database", str(junk), settings_dict=settings_dict)
    kind = ("ClubRating-SQLite-Datenbank." if connection.vendor == "sqlite"
            else "PostgreSQL-Datenbank (pg_dump -Fc).")
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == f"CommandError: {junk} ist keine Sicherung einer {kind}\n"
    assert restored.introspection.table_names() == []


def test_a_missing_pg_dump_is_named_with_how_to_install_it(monkeypatch):
    from clubrating.core import backup

    monkeypatch.setattr(backup.shutil, "which", lambda name: None)
    monkeypatch.setattr(backup, "_PG_BIN_GLOB", "/nonexistent/*/bin")
    with translation.override("de-at"), pytest.raises(backup.BackupRefused) as refused:
        backup._pg_program("pg_dump")
    assert str(refused.value) == (
        "Das PostgreSQL-Programm pg_dump wurde nicht gefunden. Installieren Sie die PostgreSQL-Client-"
        "Programme (Debian: apt-get install postgresql-client) oder nehmen Sie pg_dump in den PATH auf."
    )
