"""Everything the ratings services do differently on PostgreSQL and SQLite, behind named
functions: the services read as the rules do, and this is the one module that asks which
database runs.

Locks: SQLite serialises writers (IMMEDIATE transactions), so nothing is locked there
(``writers_serialised``); on PostgreSQL result saves run side by side, each locking the game's
row (``game_locked``), the pools in share mode with a short wait (``pools_locked``) and the
members it rewrites (``members_lock``, advisory locks).

Set-based writes of many rows: one statement per batch, never one per row.

PostgreSQL inserts with ``COPY … FROM STDIN`` (binary) and updates many rows by copying them into a
temporary table joined by one ``UPDATE … FROM``, a few rows with one ``UPDATE … FROM unnest(…)``
(the rows as one array per column); a statement per row costs a network round trip
and a plan each, which made a federation pool's recalculation and closing several times slower
there than on SQLite. SQLite runs in-process, so a prepared statement executed many times
(``executemany``) is already the set-based form there.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import json
from collections.abc import Iterable, Sequence
from contextlib import contextmanager

from django.db import OperationalError, connection
from django.db.models import BooleanField, FloatField, ForeignKey, IntegerField, Model
from django.utils.translation import gettext as _

from clubrating.core.db import fetch_rows, plain_rows, prepared_cursor  # noqa: F401  (fetch_rows: here too)
from clubrating.tournaments.recording import game_locked  # noqa: F401  (the game's lock, named here too)
from ratings.models import RatingPool
from ratings.services.errors import RatingsError

BATCH = 20000
# From this many rows an update goes through COPY and a temporary table: sending arrays costs
# Python seconds at a federation pool's 200,000 records (each value dumped one by one), COPY's
# binary rows a tenth of that; below it the temporary table's creation is the larger cost.
COPY_FROM = 2000
_temporary = itertools.count(1)


def writers_serialised() -> bool:
    """True where the database runs one writer at a time (SQLite): no row or member locks needed."""
    return connection.vendor != "postgresql"


def binary_reads() -> bool:
    """True where small repeated reads go through prebuilt SQL and the binary cursor
    (``fetch_sql``, PostgreSQL); elsewhere the ORM's queries read them."""
    return connection.vendor == "postgresql"


# How long a save waits for a pool's exclusive holder before it is refused. Closing, reopening
# and recalculating a federation's pool hold it for seconds; the official is told at once to
# save again in a moment (his entry stays on the page) rather than left waiting, and a short
# holder (a small import, a pool's settings saved) is simply waited for.
SAVE_LOCK_WAIT = "800ms"


def pools_locked(ids: list[int], mode: str) -> list[RatingPool]:
    """The pools ``ids`` locked ``FOR mode``, waiting at most ``SAVE_LOCK_WAIT`` (PostgreSQL)."""
    placeholders = ", ".join(["%s"] * len(ids))
    if connection.vendor != "postgresql":
        sql = f"SELECT * FROM {RatingPool._meta.db_table} WHERE id IN ({placeholders}) ORDER BY id"
        return list(RatingPool.objects.raw(sql, ids))
    fields = RatingPool._meta.concrete_fields
    # Inside ``generic_plans`` the plans' setting is changed here too, the first time.
    generic = getattr(connection, "_generic_plans", None)
    generic = generic if generic is not None and generic.before is None else None
    # One round trip: keep the transaction's own lock_timeout, wait at most SAVE_LOCK_WAIT for
    # the lock, then put the kept setting back (for these statements only).
    sql = (
        "SELECT set_config('clubrating.lock_timeout', current_setting('lock_timeout'), true), "
        "set_config('lock_timeout', %s, true)"
        + (", current_setting('plan_cache_mode'), set_config('plan_cache_mode', 'force_generic_plan', true)"
           if generic is not None else "")
        + "; "
        f"SELECT {', '.join(f.column for f in fields)} FROM {RatingPool._meta.db_table} "
        f"WHERE id IN ({placeholders}) ORDER BY id FOR {mode}; "
        "SELECT set_config('lock_timeout', current_setting('clubrating.lock_timeout'), true)"
    )
    with connection.cursor() as cursor:
        try:
            cursor.execute(sql, [SAVE_LOCK_WAIT, *ids])
        except OperationalError as error:
            if getattr(error.__cause__, "sqlstate", None) != "55P03":  # lock_not_available
                raise
            raise RatingsError(
                _(
                    "The pool's ratings are being updated right now (a period closed or reopened, "
                    "a recalculation or an import); nothing was saved. Please save again in a moment."
                ),
                code="busy",
            ) from None
        if generic is not None:
            generic.before = cursor.fetchone()[2]
        cursor.cursor.nextset()
        rows = cursor.fetchall()
    names = [f.attname for f in fields]
    return [RatingPool.from_db(connection.alias, names, row) for row in rows]


class _GenericPlans:
    """A ``generic_plans`` block: the setting before it, once changed (by ``pools_locked``)."""

    before: str | None = None


@contextmanager
def generic_plans():
    """Within it, prepared statements run their generic plan (PostgreSQL; nothing elsewhere).
    A result save's statements are small and index-driven whatever their parameters, yet
    PostgreSQL plans anew at every run those whose parameters are arrays (it cannot tell their
    length in a generic plan, so it keeps preferring a custom one): a third of a save's time in
    the database. Only the statements of ``clubrating.core.db`` and this module are prepared.

    The setting is changed in the statement that locks the pools (``pools_locked``, one round
    trip less): the save's statements with arrays all come after it; those before it (the
    game's lock, its checks) take scalars. It lasts until the transaction ends (or a savepoint
    around it is rolled back); inside an outer transaction it is put back afterwards."""
    if connection.vendor != "postgresql":
        yield
        return
    nested = len(connection.atomic_blocks) > 1
    block, outer = _GenericPlans(), getattr(connection, "_generic_plans", None)
    connection._generic_plans = block
    try:
        yield
    finally:
        connection._generic_plans = outer
    if nested and block.before is not None:
        plain_rows("SELECT set_config('plan_cache_mode', %s, true)", [block.before])


def members_lock(pool: RatingPool, member_ids: set[int]) -> None:
    """Lock the members' ratings in ``pool`` until the transaction ends (PostgreSQL advisory
    locks, taken in one statement in ascending order so that two saves never wait for each
    other crosswise). No-op on SQLite, whose writers are serialised anyway."""
    if connection.vendor != "postgresql" or not member_ids:
        return
    with prepared_cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, m) FROM (SELECT unnest(%s::int[]) AS m ORDER BY 1) AS s",
            [pool.pk, sorted(member_ids)],
        )


def members_try_lock(pool: RatingPool, member_ids: set[int]) -> bool:
    """Like ``members_lock`` but without waiting: False if another transaction holds any of them
    (those that were free stay locked until the caller rolls back to a savepoint)."""
    if connection.vendor != "postgresql" or not member_ids:
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT bool_and(pg_try_advisory_xact_lock(%s, m)) FROM unnest(%s::int[]) AS m",
            [pool.pk, sorted(member_ids)],
        )
        return bool(cursor.fetchone()[0])


def _batches(rows: Sequence[tuple], size: int = BATCH):
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _column_types(model: type[Model], columns: Sequence[str]) -> list[str]:
    return list(_types(model, tuple(columns), connection.vendor))


@functools.cache
def _types(model: type[Model], columns: tuple[str, ...], vendor: str) -> tuple[str, ...]:
    """The columns' database types (the same for every call: a result save asks each time)."""
    by_column = {f.column: f for f in model._meta.concrete_fields}
    return tuple(by_column[c].db_type(connection) for c in columns)


@functools.cache
def _python_type(model: type[Model], column: str):
    """The Python type an array of the column must hold (an array's items share one type)."""
    field = next(f for f in model._meta.concrete_fields if f.column == column)
    if isinstance(field, FloatField):
        return float
    if isinstance(field, BooleanField):
        return bool
    if isinstance(field, (IntegerField, ForeignKey)) or field.primary_key:
        return int
    return None


def fetch_sql(sql: str, params: Sequence) -> list[tuple]:
    """The rows of a PostgreSQL statement, through the binary cursor of ``fetch_rows``: for the
    small reads a result save repeats, whose SQL is built once instead of by the ORM each time
    (building it took longer than running it)."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()


def rows_insert(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert ``rows`` (tuples in the order of ``columns``, database column names)."""
    table = model._meta.db_table
    rows = list(rows)
    if not rows:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            _copy(cursor, table, columns, _column_types(model, columns), rows)
            return
        cols = ", ".join(columns)
        cursor.executemany(f"INSERT INTO {table} ({cols}) VALUES ({', '.join(['%s'] * len(columns))})", rows)


def _copy(cursor, table: str, columns: Sequence[str], types: Sequence[str], rows: Sequence[tuple]) -> None:
    """``COPY`` the rows in PostgreSQL's binary format (numbers are not printed and parsed).
    The column types are set, so each value is dumped as its column's type (a boolean column
    takes any truth value: 0/1, NumPy's booleans), row by row without converting it first."""
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types([t.split("(")[0] for t in types])
        for row in rows:
            copy.write_row(row)


def rows_delete(model: type[Model], ids: Sequence[int]) -> None:
    """Delete the rows with primary keys ``ids``, one statement per batch."""
    table, pk = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        for batch in _batches(list(ids), 900 if connection.vendor != "postgresql" else BATCH):
            if connection.vendor == "postgresql":
                cursor.execute(f"DELETE FROM {table} WHERE {pk} = ANY(%s)", [list(batch)])
            else:
                cursor.execute(f"DELETE FROM {table} WHERE {pk} IN ({', '.join(['%s'] * len(batch))})", batch)


def rows_update(
    model: type[Model], keys: Sequence[str], columns: Sequence[str], rows: Sequence[tuple]
) -> None:
    """Set ``columns`` of the rows identified by ``keys``; each row is (*column values, *key values)."""
    if not rows:
        return
    table = model._meta.db_table
    if connection.vendor != "postgresql":
        sets = ", ".join(f"{c}=%s" for c in columns)
        where = " AND ".join(f"{k}=%s" for k in keys)
        with connection.cursor() as cursor:
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE {where}", list(rows))
        return
    names = [*columns, *keys]
    types = _column_types(model, names)
    sets = ", ".join(f"{c}=v.{c}" for c in columns)
    where = " AND ".join(f"t.{k}=v.{k}" for k in keys)
    if len(rows) >= COPY_FROM:
        # (A failure rolls the transaction back, and the temporary table with it.)
        temporary = f"rows_update_{next(_temporary)}"
        definition = ", ".join(f"{n} {t}" for n, t in zip(names, types))
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TEMPORARY TABLE {temporary} ({definition})")
            _copy(cursor, temporary, names, types, rows)
            # No ANALYZE: a table never analyzed is planned from its size on disk, which gives
            # the join's row count as closely (and the same plan) at a fraction of the cost
            # (ANALYZE samples the rows: about a tenth of a federation pool's closing).
            cursor.execute(f"UPDATE {table} AS t SET {sets} FROM {temporary} AS v WHERE {where}")
            cursor.execute(f"DROP TABLE {temporary}")
        return
    with prepared_cursor() as cursor:
        for batch in _batches(rows):
            cursor.execute(*rows_update_statement(model, keys, columns, batch))


def rows_update_statement(
    model: type[Model], keys: Sequence[str], columns: Sequence[str], rows: Sequence[tuple]
) -> tuple[str, list]:
    """``rows_update``'s statement for a few rows on PostgreSQL, as (SQL, parameters): to be run
    with others in one round trip (a data-modifying ``WITH``)."""
    names = (*columns, *keys)
    # The rows as one JSON text, read by PostgreSQL as a set of rows: the statement stays short
    # whatever the batch (a VALUES list of 5,000 rows costs seconds just to parse its
    # placeholders), and it is written by the json module's C code (psycopg dumps arrays value
    # by value in Python: more time than the update). A float is written as the shortest text
    # that reads back as the same double (``repr``), and PostgreSQL's float input reads it so:
    # the values stored are the ones given, to the bit.
    ints = [i for i, name in enumerate(names) if _python_type(model, name) is int]
    if ints:
        rows = [list(row) for row in rows]
        for row in rows:
            for i in ints:
                if row[i] is not None:
                    row[i] = int(row[i])
    return _json_update_sql(model, tuple(columns), tuple(keys)), [json.dumps(rows, default=_json_scalar)]


def _json_scalar(value):
    """What json does not write itself: a date (as PostgreSQL reads it back, ISO 8601) and a
    NumPy scalar (an engine's result: its Python value)."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not a column value")


@functools.cache
def _json_update_sql(model: type[Model], columns: tuple[str, ...], keys: tuple[str, ...]) -> str:
    names = (*columns, *keys)
    types = _column_types(model, names)
    sets = ", ".join(f"{c}=v.{c}" for c in columns)
    where = " AND ".join(f"t.{k}=v.{k}" for k in keys)
    values = ", ".join(f"(r->>{i})::{t} AS {n}" for i, (n, t) in enumerate(zip(names, types, strict=True)))
    return (f"UPDATE {model._meta.db_table} AS t SET {sets} "
            f"FROM (SELECT {values} FROM json_array_elements(%s::json) AS r) AS v WHERE {where}")
