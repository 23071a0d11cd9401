"""Writing the benchmarks' size databases fast: members and games in sets.

``web_bench._seed`` draws its members and games here and writes them with PostgreSQL's ``COPY``
(``ratings.services.db.rows_insert``) instead of building a model object per row: a national
federation's 100,000 members and 1,000,000 games are plain tuples. Foreign keys are not
checked row by row while a size is built (``keys_unchecked``): the checks cost more than the
writing, and the keys written are ones just read back or made by the app itself.

The ratings are not written here: they come from the ratings app itself (one recalculation of
the pool's first period, closing it, one more for the open period), so they are exactly what the
app computes for these games (``tests/benchmarks/test_bench_seed.py`` checks a small pool
against a fresh recalculation).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import contextmanager


def _defaults(model, given: Sequence[str]) -> tuple[tuple[str, ...], tuple]:
    """The columns of ``model`` besides ``given`` (attribute names) and the primary key, with
    the values a new object gets for them (its defaults, ``auto_now`` times), read once."""
    from django.db import connection

    template = model()
    columns, values = [], []
    for field in model._meta.concrete_fields:
        if field.primary_key or getattr(field, "generated", False) or field.attname in given:
            continue
        columns.append(field.column)
        values.append(field.get_db_prep_save(field.pre_save(template, add=True), connection))
    return tuple(columns), tuple(values)


@contextmanager
def keys_unchecked():
    """Foreign keys not checked row by row while a size is built (PostgreSQL, when the
    connection may: the replica role skips the checks' triggers, which at commit cost more than
    writing the rows). The rows written name keys just read back or made by the app itself."""
    from django.db import connection

    replica = False
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('is_superuser') = 'on'")
            replica = cursor.fetchone()[0]
            if replica:
                cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        if replica:
            with connection.cursor() as cursor:
                cursor.execute("RESET session_replication_role")


def objects_write(model, given: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert rows of ``model``: each a tuple of the ``given`` fields (attribute names, e.g.
    ``club_id``), the other fields as a new object has them."""
    from django.db import connection, transaction

    from ratings.services.db import rows_insert

    columns, defaults = _defaults(model, given)
    by_attname = {field.attname: field.column for field in model._meta.concrete_fields}
    names = (*(by_attname[name] for name in given), *columns)
    batch: list[tuple] = []
    with transaction.atomic():
        for row in rows:
            batch.append(row + defaults)
            if len(batch) == 200_000:
                rows_insert(model, names, batch)
                batch = []
        rows_insert(model, names, batch)
    if connection.vendor == "postgresql":  # the planner's figures of the table as it now is
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {model._meta.db_table}")
