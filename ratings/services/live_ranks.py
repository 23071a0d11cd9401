"""The live list's ranks, kept with the live ratings (``PoolMember.live_rank``).

Every write of live ratings renumbers, in the same transaction, the ranks that write can move,
and only those: the list pages then read a stored rank instead of ranking the whole pool
(``ROW_NUMBER() OVER …``) for every reader after every save. The order is the one of
``ratings.rank_order`` (rating, then folded name, then record number), computed by the database
over the rows that can move.

Which rows can move: if members' live ratings went from ``old`` to ``new``, a row rated above
every such old and new rating keeps every member ahead of it, and a row rated below all of them
keeps the same number of members ahead of it (the moved ones were ahead before and still are),
unless a member entered or left the list (then every row below counts one more or one less).
So only the rows rated between the lowest and highest of those ratings (down to the end of the
list when a member entered or left) are renumbered: their rank is the number of rows rated above
that band (the rank of the last of them, which stays) plus their place in it; a row's rank is
written only when it changed.

On PostgreSQL saves of different games run side by side (``ratings.services.db``): each holds
the pool's rank lock (``pool_ranks_lock``) from before it writes live ratings until it commits,
so that one save's renumbering reads the live ratings another save has committed, never a band
it is still changing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.db.models import Window
from django.db.models.functions import RowNumber

from clubrating.core.db import plain_execute
from ratings.models import PoolMember
from ratings.rank_order import LIVE_RANK_ORDER
from ratings.services.db import writers_serialised

# The first key of the pool's rank lock (the second is the pool): advisory locks of one pair of
# keys, apart from the members' locks (``members_lock``: the pool and the member).
_RANKS_LOCK = -0x52414E4B
# Placeholders of the band's bounds and pool while the statement is built (``_renumber_sql``).
_POOL, _LOW, _HIGH = -7, -7.25, -7.75


def pool_ranks_lock(pool_id: int) -> None:
    """Hold the pool's rank lock until the transaction ends (PostgreSQL; SQLite serialises
    writers). Taken before live ratings are written: a save holding it never waits for a row
    another save has written without it."""
    if not writers_serialised():
        plain_execute("SELECT pg_advisory_xact_lock(%s, %s)", [_RANKS_LOCK, pool_id])


@functools.cache
def _renumber_sql() -> tuple[str, list, tuple[int, int, int]]:
    """The renumbering of a band as one statement (built once, by the ORM from
    ``LIVE_RANK_ORDER``, for the process's one database): its SQL, its parameters, and where the
    pool and the band's low and high rating go in them. Only the rows whose rank changes are
    written."""
    table = PoolMember._meta.db_table
    band = (PoolMember.objects.filter(pool_id=_POOL, live_rating__gte=_LOW, live_rating__lte=_HIGH)
            .order_by().annotate(place=Window(RowNumber(), order_by=LIVE_RANK_ORDER))
            .values_list("id", "place", "live_rank"))
    inner, params = band.query.sql_with_params()
    # The rows rated above the band keep their ranks: their number is the rank of the last of
    # them (the lowest rating, the highest rank among its ties), found on the rating index.
    above = (f"COALESCE((SELECT live_rank FROM {table} WHERE pool_id = %s AND live_rating > %s "
             "ORDER BY live_rating, live_rank DESC LIMIT 1), 0)")
    # Members who left the list (their live rating gone) lose their rank, when asked (the last
    # parameter): in the same statement, so that a save runs as many statements either way.
    sql = (f"UPDATE {table} SET live_rank = band.place FROM ("
           f"SELECT ranked.id, ranked.place + {above} AS place, ranked.live_rank FROM ({inner}) AS ranked "
           f"UNION ALL SELECT id, NULL, live_rank FROM {table} "
           "WHERE pool_id = %s AND live_rating IS NULL AND live_rank IS NOT NULL AND %s"
           f") AS band WHERE {table}.id = band.id "
           "AND (band.live_rank IS NULL OR band.place IS NULL OR band.live_rank <> band.place)")
    params = [_POOL, _HIGH, *params, _POOL, True]
    places = tuple(tuple(i for i, value in enumerate(params) if value == mark and value is not True)
                   for mark in (_POOL, _LOW, _HIGH))
    return sql, params, places


def live_ranks_renumber(pool_id: int, moved: Iterable[tuple[float | None, float | None]] | None = None
                        ) -> int:
    """Renumber the live ranks the written live ratings can move (see above); ``moved``: (old,
    new) live rating of every member written, None when any member of the pool may have moved
    (every rank is then checked). Returns the number of ranks written."""
    low, high = float("-inf"), float("inf")
    leaving = True
    if moved is not None:
        changed = [(old, new) for old, new in moved if old != new]
        values = [v for pair in changed for v in pair if v is not None]
        if not values:
            return 0
        high = max(values)
        leaving = any(new is None for _old, new in changed)
        if all(old is not None and new is not None for old, new in changed):
            low = min(values)
    return _renumber(pool_id, low, high, leaving)


def live_ranks_member_renamed(*, member_id: int) -> int:
    """Renumber the member's ties after his name changed (the name orders members with one
    rating, ``ratings.rank_order``), in every pool where he has a live rank."""
    written = 0
    for pool_id, rating in PoolMember.objects.filter(member_id=member_id, live_rating__isnull=False).order_by(
            ).values_list("pool_id", "live_rating"):
        pool_ranks_lock(pool_id)
        written += _renumber(pool_id, rating, rating, False)
    return written


def _renumber(pool_id: int, low: float, high: float, leaving: bool) -> int:
    sql, params, (pools, lows, highs) = _renumber_sql()
    params = list(params)
    for places, value in ((pools, pool_id), (lows, low), (highs, high)):
        for i in places:
            params[i] = value
    params[-1] = leaving
    return plain_execute(sql, params)
