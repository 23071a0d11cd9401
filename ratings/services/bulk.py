"""Set-based writes of many rows: one statement per batch, never one per row.

PostgreSQL inserts with ``COPY … FROM STDIN`` and updates with one ``UPDATE … FROM (VALUES …)``
per batch; a statement per row costs a network round trip and a plan each, which made a
federation pool's recalculation and closing several times slower there than on SQLite. SQLite
runs in-process, so a prepared statement executed many times (``executemany``) is already the
set-based form there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models import Model

BATCH = 5000


def _batches(rows: Sequence[tuple], size: int = BATCH):
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _column_types(model: type[Model], columns: Sequence[str]) -> list[str]:
    by_column = {f.column: f for f in model._meta.concrete_fields}
    return [by_column[c].db_type(connection) for c in columns]


def rows_insert(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert ``rows`` (tuples in the order of ``columns``, database column names)."""
    table = model._meta.db_table
    cols = ", ".join(columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        cursor.executemany(
            f"INSERT INTO {table} ({cols}) VALUES ({', '.join(['%s'] * len(columns))})", list(rows)
        )


def rows_update(
    model: type[Model], keys: Sequence[str], columns: Sequence[str], rows: Sequence[tuple]
) -> None:
    """Set ``columns`` of the rows identified by ``keys``; each row is (*column values, *key values)."""
    if not rows:
        return
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            sets = ", ".join(f"{c}=%s" for c in columns)
            where = " AND ".join(f"{k}=%s" for k in keys)
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE {where}", list(rows))
            return
        names = [*columns, *keys]
        # Typed placeholders: a VALUES column of NULLs only would otherwise be of type text.
        one = "(" + ", ".join(f"%s::{t}" for t in _column_types(model, names)) + ")"
        sets = ", ".join(f"{c}=v.{c}" for c in columns)
        where = " AND ".join(f"t.{k}=v.{k}" for k in keys)
        # PostgreSQL binds at most 65,535 parameters per statement.
        for batch in _batches(rows, min(BATCH, 65535 // len(names))):
            cursor.execute(
                f"UPDATE {table} AS t SET {sets} FROM (VALUES {', '.join([one] * len(batch))}) "
                f"AS v({', '.join(names)}) WHERE {where}",
                [value for row in batch for value in row],
            )
