"""Small reads and writes that a result save repeats, run as prepared statements on PostgreSQL.

Django's own cursors bind parameters on the client (so that one execute may carry several
statements) and are never prepared: PostgreSQL parses and plans each of their statements anew,
which cost a result save more than running them. The statements here are plain (one statement,
no Django converters needed): on PostgreSQL they go through a psycopg cursor binding on the
server, which the connection prepares once it has run a statement ``prepare_threshold`` times
(``DATABASE_PREPARE_THRESHOLD``, settings) and then only executes. Elsewhere (SQLite, in-process)
Django's cursor runs them. They are logged as Django's own are when its query log is on (DEBUG,
``CaptureQueriesContext``), so that query counts and the benchmark's EXPLAIN see them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import contextmanager

from django.core.exceptions import EmptyResultSet
from django.db import connection


def server_bound() -> bool:
    """True where ``prepared_cursor`` exists (PostgreSQL)."""
    return connection.vendor == "postgresql"


@contextmanager
def prepared_cursor():
    """A psycopg cursor binding on the server, on Django's connection (PostgreSQL only): its
    statements are prepared by the connection, and it can send and read PostgreSQL's binary
    formats (``execute(…, binary=True)``). Errors arrive as Django's (``OperationalError`` for a
    lock timeout, …), as from Django's cursors."""
    import psycopg

    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield _Logged(cursor) if connection.queries_logged else cursor


class _Logged:
    """A prepared cursor whose statements enter Django's query log, with their parameters
    written in as Django's debug cursor writes them."""

    def __init__(self, cursor) -> None:
        self._cursor = cursor

    def execute(self, sql, params=None, **kwargs):
        start = time.monotonic()
        try:
            return self._cursor.execute(sql, params, **kwargs)
        finally:
            connection.queries_log.append({
                "sql": connection.ops.compose_sql(sql, params) if params else sql,
                "time": f"{time.monotonic() - start:.3f}",
            })

    def __getattr__(self, name):
        return getattr(self._cursor, name)


def plain_rows(sql: str, params: Sequence) -> list[tuple]:
    """The rows of one plain statement (portable SQL, ``%s`` placeholders, values that need no
    conversion: numbers, text, booleans), prepared on PostgreSQL."""
    if server_bound():
        with prepared_cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def plain_execute(sql: str, params: Sequence) -> int:
    """Run one plain writing statement (as ``plain_rows``); returns the rows it changed."""
    if server_bound():
        with prepared_cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def fetch_rows(queryset) -> list[tuple]:
    """The rows of a ``values_list`` query as plain tuples. On PostgreSQL through a binary
    cursor: numbers and dates travel in their binary form instead of being printed as text and
    parsed again (a third of the time of reading a federation pool's 400,000 records). The
    query must need no Django converters (plain columns, dates, numbers, booleans, text)."""
    if connection.vendor != "postgresql":
        return list(queryset)
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:  # (a filter that can match nothing, e.g. ``__in=[]``: as Django answers it)
        return []
    with prepared_cursor() as cursor:
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()
