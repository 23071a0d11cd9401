"""The demo club (``seed_demo``) seeded once per test process and copied in wherever a test needs it.

Seeding runs the whole club through the services (pairings, results, ratings, closed periods, a
league season) and takes seconds; copying its rows back takes a fraction of that. The copy is every
row of every table (content types and permissions too, so that what refers to them stays right), as
``seed_demo`` left them in a fresh test database, read once and rolled back.

``demo_restore`` replaces every table's rows by the copy, inside a transaction: the foreign keys
are checked when it commits (Django creates them deferred on SQLite and PostgreSQL), and
PostgreSQL's sequences are moved past the copied keys, so that a test's new rows do not collide.
"""

import datetime
import pickle
from pathlib import Path

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, models, transaction

# Django's record of applied migrations belongs to the schema, not to the data.
KEEP = {"django_migrations"}

Snapshot = dict[str, tuple[list[str], list[tuple]]]


def _tables(cursor) -> list[str]:
    return [t for t in connection.introspection.table_names(cursor) if t not in KEEP]


def _generated() -> set[tuple[str, str]]:
    """(table, column) of the generated columns: the database computes them, they take no value."""
    return {(model._meta.db_table, field.column) for model in apps.get_models(include_auto_created=True)
            for field in model._meta.local_fields if isinstance(field, models.GeneratedField)}


def _stored(value):
    """A value as it is written back: SQLite's driver reads a time (Django's converter) but has no
    adapter to write one; Django stores it as its ISO text."""
    return value.isoformat() if isinstance(value, datetime.time) else value


def snapshot_read() -> Snapshot:
    """Every row of every table as the database holds them now (``demo_restore`` writes them back)."""
    quote = connection.ops.quote_name
    snapshot: Snapshot = {}
    generated = _generated()
    with transaction.atomic(), connection.cursor() as cursor:
        for table in _tables(cursor):
            cursor.execute(f"SELECT * FROM {quote(table)} WHERE 1 = 0")
            columns = [c[0] for c in cursor.description if (table, c[0]) not in generated]
            cursor.execute(f"SELECT {', '.join(quote(c) for c in columns)} FROM {quote(table)}")
            snapshot[table] = (columns, [tuple(map(_stored, row)) for row in cursor.fetchall()])
    return snapshot


def demo_snapshot_take() -> Snapshot:
    """Seed the demo club, read every table, and roll the seeding back."""
    with transaction.atomic():
        call_command("seed_demo", verbosity=0)
        snapshot = snapshot_read()
        transaction.set_rollback(True)
    ContentType.objects.clear_cache()
    return snapshot


def demo_restore(snapshot: Snapshot) -> None:
    """Make the database hold exactly the demo club of ``snapshot``."""
    quote = connection.ops.quote_name
    with transaction.atomic():
        with connection.cursor() as cursor:
            for table in _tables(cursor):
                cursor.execute(f"DELETE FROM {quote(table)}")
            for table, (columns, rows) in snapshot.items():
                if not rows:
                    continue
                names = ", ".join(quote(column) for column in columns)
                marks = ", ".join(["%s"] * len(columns))
                cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)
            every_model = apps.get_models(include_auto_created=True)
            for statement in connection.ops.sequence_reset_sql(no_style(), every_model):
                cursor.execute(statement)
    ContentType.objects.clear_cache()


def demo_snapshot_shared(path: Path, lock) -> Snapshot:
    """The snapshot that the first test process of a run took and left at ``path``, or taken now
    and left there for the others (each process's database is a copy of one template, so the
    content types and permissions the rows refer to are the same in each). ``lock`` (a context
    manager) keeps a second process from seeding while the first one does."""
    with lock():
        if path.exists():
            return pickle.loads(path.read_bytes())
        snapshot = demo_snapshot_take()
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(pickle.dumps(snapshot))
        partial.replace(path)
        return snapshot
