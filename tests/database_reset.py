"""Emptying the database after a transactional test, in less time than Django's flush.

Django's ``TransactionTestCase`` empties the database after each test with the ``flush`` command:
on PostgreSQL a TRUNCATE of every table (each gets new files, its indexes too), then the
``post_migrate`` signal, which writes the content types and permissions back. The database it leaves
is the same after every test: every table empty but those the signal fills, and these the same.

``reset`` leaves that same database: it deletes the rows of the tables that hold any, and keeps the
rows the signal wrote the last time when they are still exactly as it wrote them (every column
compared). If a test changed them, or on the process's first reset, Django's flush runs as before.
On PostgreSQL about a tenth of the flush's time per test (docs/benchmarks.md).
"""

from django.core.management import call_command
from django.db import connections, transaction

# Per database alias: {table: its rows} as the post_migrate signal left them after a flush.
_AFTER_FLUSH: dict[str, dict[str, list[tuple]]] = {}


def _tables(connection) -> list[str]:
    # The tables Django's flush empties (the migrations' own table is not among them).
    return sorted(connection.introspection.django_table_names(only_existing=True, include_views=False))


def _with_rows(connection, tables: list[str]) -> list[str]:
    """Those of ``tables`` that hold a row, in one query."""
    quote = connection.ops.quote_name
    query = " UNION ALL ".join(
        f"SELECT {i} WHERE EXISTS (SELECT 1 FROM {quote(table)})" for i, table in enumerate(tables))
    with connection.cursor() as cursor:
        cursor.execute(query)
        return [tables[row[0]] for row in cursor.fetchall()]


def _rows(connection, table: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY 1")
        return cursor.fetchall()


def flush(alias: str) -> None:
    """Django's flush as ``TransactionTestCase`` runs it; then notes what the signal wrote."""
    call_command("flush", verbosity=0, interactive=False, database=alias, reset_sequences=False,
                 allow_cascade=False, inhibit_post_migrate=False)
    connection = connections[alias]
    _AFTER_FLUSH[alias] = {table: _rows(connection, table)
                           for table in _with_rows(connection, _tables(connection))}


def reset(alias: str) -> None:
    """The database of ``alias`` as ``flush`` leaves it."""
    connection = connections[alias]
    after_flush = _AFTER_FLUSH.get(alias)
    if after_flush is None:
        flush(alias)
        return
    with transaction.atomic(using=alias):
        filled = _with_rows(connection, _tables(connection))
        kept = [table for table in filled if table in after_flush]
        if set(kept) != set(after_flush) or any(_rows(connection, table) != after_flush[table]
                                                for table in kept):
            changed = True
        else:
            changed = False
            with connection.cursor() as cursor:
                # The foreign keys are checked when the transaction commits (Django creates them
                # deferred), when every referencing row is gone too.
                for table in filled:
                    if table not in after_flush:
                        cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
    if changed:
        flush(alias)


def fixture_teardown(self) -> None:
    """``TransactionTestCase._fixture_teardown`` with ``reset`` for ``flush`` where Django flushes
    everything and writes the signal's rows back (no ``available_apps``, no serialized rollback)."""
    for alias in self._databases_names(include_mirrors=False):
        if self.available_apps is not None or (
                self.serialized_rollback and hasattr(connections[alias], "_test_serialized_contents")):
            return _DJANGO_FIXTURE_TEARDOWN(self)
    for alias in self._databases_names(include_mirrors=False):
        reset(alias)


_DJANGO_FIXTURE_TEARDOWN = None


def install() -> None:
    """Let every ``TransactionTestCase`` (pytest-django's ``transactional_db``, ``live_server``)
    empty the database with ``reset``."""
    global _DJANGO_FIXTURE_TEARDOWN
    from django.test import TransactionTestCase

    if _DJANGO_FIXTURE_TEARDOWN is None:
        _DJANGO_FIXTURE_TEARDOWN = TransactionTestCase._fixture_teardown
        TransactionTestCase._fixture_teardown = fixture_teardown
