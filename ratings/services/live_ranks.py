"""The live list's ranks, kept with the live ratings: each row's place among the rows tied
with its live rating (``PoolMember.live_place``) and, per live rating, the count of rows rated
above it (``ratings.live_level.LiveLevel``); a row's rank is their sum (``live_rank_expression``).

Every write of live ratings rewrites, in the same transaction, the places and levels it moves:
the list pages then read a rank by one index seek instead of ranking the whole pool
(``ROW_NUMBER() OVER …``) for every reader after every save. The order is the one of
``ratings.lists.order`` (rating, then folded name, then record number). A result save places its
few players itself (``live_places``); a write of many members' live ratings (a period's
evaluation, a merge, a deletion) rebuilds the pool's places and levels here, in one read of the
pool's rows: it writes only the places and levels that changed.

On PostgreSQL saves of different games run side by side (``ratings.services.db``): each holds
the pool's rank lock (``pool_ranks_lock``) from before it writes live ratings until it commits,
so that one save's places and levels are computed from what another save has committed, never
from levels it is still changing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from clubrating.clubs.models import Member
from clubrating.core.db import plain_execute, plain_rows
from ratings.lists.order import rank_key
from ratings.models import LiveLevel, PoolMember
from ratings.services.cache import pool_cache_bump
from ratings.services.db import rows_delete, rows_insert, rows_update, writers_serialised

# The first key of the pool's rank lock (the second is the pool): advisory locks of one pair of
# keys, apart from the members' locks (``members_lock``: the pool and the member).
_RANKS_LOCK = -0x52414E4B


RANKS_LOCK_SQL = "SELECT pg_advisory_xact_lock(%s, %s)"


def ranks_lock_params(pool_id: int) -> list[int]:
    """The parameters of ``RANKS_LOCK_SQL`` for the pool (to take the lock with another write)."""
    return [_RANKS_LOCK, pool_id]


def pool_ranks_lock(pool_id: int) -> None:
    """Hold the pool's rank lock until the transaction ends (PostgreSQL; SQLite serialises
    writers). Taken before live ratings are written: a save holding it never waits for a row
    another save has written without it."""
    if not writers_serialised():
        plain_execute(RANKS_LOCK_SQL, ranks_lock_params(pool_id))


def _rows_sql(where: str = "") -> str:
    """The pool's rows (id, member, live rating, place, last and first name)."""
    pm, m = PoolMember._meta.db_table, Member._meta.db_table
    return (f"SELECT pm.id, pm.member_id, pm.live_rating, pm.live_place, m.last_name, m.first_name "
            f"FROM {pm} AS pm JOIN {m} AS m ON m.id = pm.member_id WHERE pm.pool_id = %s{where}")


def live_ranks_renumber(pool_id: int, moved: Iterable[tuple[float | None, float | None]] | None = None
                        ) -> int:
    """Rebuild the pool's places and levels from its live ratings after they were written;
    ``moved``: (old, new) live rating of every member written (nothing to do when none changed),
    None when any member of the pool may have moved. Returns the number of places and levels
    written."""
    if moved is not None and all(old == new for old, new in moved):
        return 0
    rows = plain_rows(_rows_sql(), [pool_id])
    return _places_store(rows) + live_levels_store(pool_id, [row[2] for row in rows if row[2] is not None])


def _places_store(rows: list[tuple]) -> int:
    """Write the places of ``rows`` (as ``_rows_sql`` reads them, all the rows of their ratings)
    that change. Returns their number."""
    places = live_ranks_ordered((row[1], row[2], row[4], row[5]) for row in rows)
    updates = [(places[member], pk) for pk, member, _r, place, _l, _f in rows if places[member] != place]
    rows_update(PoolMember, ("id",), ("live_place",), updates)
    return len(updates)


def live_levels_store(pool_id: int, ratings: list[float]) -> int:
    """Store the pool's levels for the live ratings ``ratings`` (one per rated row), writing
    only the levels that change. Returns their number."""
    sizes = Counter(ratings)
    levels, above = {}, 0
    for rating in sorted(sizes, reverse=True):
        levels[rating] = (above, sizes[rating])
        above += sizes[rating]
    stored = plain_rows(f"SELECT id, rating, above, size FROM {LiveLevel._meta.db_table} WHERE pool_id = %s",
                        [pool_id])
    gone = [pk for pk, rating, _a, _s in stored if rating not in levels]
    changed = [(*levels[rating], pk) for pk, rating, a, s in stored if levels.get(rating, (a, s)) != (a, s)]
    kept = {rating for _pk, rating, _a, _s in stored}
    new = [(pool_id, rating, *values) for rating, values in levels.items() if rating not in kept]
    rows_delete(LiveLevel, gone)
    rows_update(LiveLevel, ("id",), ("above", "size"), changed)
    rows_insert(LiveLevel, ("pool_id", "rating", "above", "size"), new)
    return len(gone) + len(changed) + len(new)


def live_ranks_member_renamed(*, member_id: int) -> int:
    """Reorder the member's ties after his name changed (the name orders members with one
    rating, ``ratings.lists.order``), in every pool where he has a live rank: only places
    among his ties change."""
    written = 0
    for pool_id, rating in PoolMember.objects.filter(member_id=member_id, live_rating__isnull=False).order_by(
            "pool_id").values_list("pool_id", "live_rating"):
        pool_ranks_lock(pool_id)
        written += _places_store(plain_rows(_rows_sql(" AND pm.live_rating = %s"), [pool_id, rating]))
    return written


def live_ranks_members_removed(*, member_ids: list[int]) -> int:
    """Before members are deleted: their rows of every pool go now (the deletion would take
    them) and the places and levels they held close up. Returns the number written."""
    rows = list(PoolMember.objects.filter(member_id__in=member_ids).order_by("pool_id").values_list(
        "pk", "pool_id", "live_rating"))
    if not rows:
        return 0
    pools = sorted({pool_id for _pk, pool_id, _rating in rows})
    for pool_id in pools:  # (in the pools' order: two deletions never wait for each other's lock)
        pool_ranks_lock(pool_id)
    PoolMember.objects.filter(pk__in=[row[0] for row in rows]).delete()
    written = 0
    for pool_id in pools:
        written += live_ranks_renumber(pool_id)
        pool_cache_bump(pool_id=pool_id)
    return written


def live_ranks_ordered(
    rows: Iterable[tuple[int, float | None, str, str]], names: dict[int, tuple[str, str]] | None = None
) -> dict[int, int | None]:
    """The place among its ties of every row of a pool, from (member, live rating, last name,
    first name) of all its rows, in the order of ``rank_key`` (None without a live rating): for
    a write of every member's live values at once (closing and reopening a period), which writes
    the places with them and then the levels (``live_levels_store``). ``names``: the members'
    names as ``rank_key`` folds them (``name_key``), if the caller has them already."""
    rows = list(rows)
    names = names or {}

    def key(row: tuple) -> tuple:
        name = names.get(row[0])
        return rank_key(row[1], row[2], row[3], row[0]) if name is None else (-row[1], *name, row[0])

    rated = sorted((row for row in rows if row[1] is not None), key=key)
    places: dict[int, int | None] = {row[0]: None for row in rows}
    place, rating = 0, None
    for row in rated:
        place = place + 1 if row[1] == rating else 1
        rating = row[1]
        places[row[0]] = place
    return places
