"""The live list's ranks, kept with the live ratings (``PoolMember.live_rank``).

Every write of live ratings renumbers, in the same transaction, the ranks that write can move,
and only those: the list pages then read a stored rank instead of ranking the whole pool
(``ROW_NUMBER() OVER …``) for every reader after every save. The order is the one of
``ratings.lists.order`` (rating, then folded name, then record number), computed by the database
over the rows that can move.

Which rows can move: if members' live ratings went from ``old`` to ``new``, a row rated above
every such old and new rating keeps every member ahead of it, and a row rated below all of them
keeps the same number of members ahead of it (the moved ones were ahead before and still are),
unless a member entered or left the list (then every row below counts one more or one less).
So only the rows rated between the lowest and highest of those ratings (down to the end of the
list when a member entered or left) are renumbered: their rank is the number of rows rated above
that band (the rank of the last of them, which stays) plus their place in it; a row's rank is
written only when it changed. The band is read in one statement (its rows, their names, that
rank) and ordered by ``rank_key``: folding a few hundred names in Python costs less than in SQL,
and the members are looked up by key, whatever plan a save's generic plans would choose.

On PostgreSQL saves of different games run side by side (``ratings.services.db``): each holds
the pool's rank lock (``pool_ranks_lock``) from before it writes live ratings until it commits,
so that one save's renumbering reads the live ratings another save has committed, never a band
it is still changing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from clubrating.clubs.models import Member
from clubrating.core.db import plain_execute, plain_rows
from ratings.lists.order import rank_key
from ratings.models import PoolMember
from ratings.services.cache import pool_cache_bump
from ratings.services.db import rows_update, writers_serialised

# The first key of the pool's rank lock (the second is the pool): advisory locks of one pair of
# keys, apart from the members' locks (``members_lock``: the pool and the member).
_RANKS_LOCK = -0x52414E4B


def pool_ranks_lock(pool_id: int) -> None:
    """Hold the pool's rank lock until the transaction ends (PostgreSQL; SQLite serialises
    writers). Taken before live ratings are written: a save holding it never waits for a row
    another save has written without it."""
    if not writers_serialised():
        plain_execute("SELECT pg_advisory_xact_lock(%s, %s)", [_RANKS_LOCK, pool_id])


@functools.cache
def _bands_sql() -> str:
    """Two bands' rows (id, live rating, rank, member, last and first name; the members who left
    the list, when asked, with no rating) and the rank of the last row above each band.
    Parameters: pool, high 1, infinity, pool, high 2, low 1 (for the ranks above: of the rows
    between the bands for the lower one), pool, low 1, high 1, low 2, high 2, pool, leaving.
    (The names are read per row by the member's key, whatever the number of members.)"""
    pm, m = PoolMember._meta.db_table, Member._meta.db_table
    above = (f"(SELECT live_rank FROM {pm} WHERE pool_id = %s AND live_rating > %s AND live_rating < %s "
             "ORDER BY live_rating, live_rank DESC LIMIT 1)")
    return (
        "SELECT pm.id, pm.live_rating, pm.live_rank, pm.member_id, "
        f"(SELECT last_name FROM {m} WHERE id = pm.member_id), "
        f"(SELECT first_name FROM {m} WHERE id = pm.member_id), {above}, {above} "
        f"FROM {pm} AS pm WHERE pm.pool_id = %s AND (pm.live_rating >= %s AND pm.live_rating <= %s "
        "OR pm.live_rating >= %s AND pm.live_rating <= %s) "
        f"UNION ALL SELECT id, NULL, live_rank, member_id, '', '', NULL, NULL FROM {pm} "
        "WHERE pool_id = %s AND live_rating IS NULL AND live_rank IS NOT NULL AND %s"
    )


def live_ranks_renumber(pool_id: int, moved: Iterable[tuple[float | None, float | None]] | None = None
                        ) -> int:
    """Renumber the live ranks the written live ratings can move (see above); ``moved``: (old,
    new) live rating of every member written, None when any member of the pool may have moved
    (every rank is then checked). Returns the number of ranks written.

    Each member's band runs from his old to his new rating (to the end of the list when he
    entered or left it); the rows between two bands keep their ranks (the members of the upper
    band are ahead of them before and after, those of the lower one behind), so only the bands
    are read, overlapping ones joined, and at most two (the closest joined first: a wider band
    is renumbered as exactly, only reading more rows)."""
    if moved is None:
        return _renumber(pool_id, [(float("-inf"), float("inf"))], True)
    bands = []
    leaving = False
    for old, new in moved:
        if old == new:
            continue
        values = [v for v in (old, new) if v is not None]
        if not values:
            continue
        low = min(values) if old is not None and new is not None else float("-inf")
        leaving = leaving or new is None
        bands.append((low, max(values)))
    if not bands:
        return 0
    bands.sort(key=lambda band: -band[1])
    joined = [bands[0]]
    for low, high in bands[1:]:
        if high >= joined[-1][0]:
            joined[-1] = (min(low, joined[-1][0]), joined[-1][1])
        else:
            joined.append((low, high))
    while len(joined) > 2:
        gap = min(range(len(joined) - 1), key=lambda i: joined[i][0] - joined[i + 1][1])
        joined[gap:gap + 2] = [(joined[gap + 1][0], joined[gap][1])]
    return _renumber(pool_id, joined, leaving)


def live_ranks_member_renamed(*, member_id: int) -> int:
    """Renumber the member's ties after his name changed (the name orders members with one
    rating, ``ratings.lists.order``), in every pool where he has a live rank."""
    written = 0
    for pool_id, rating in PoolMember.objects.filter(member_id=member_id, live_rating__isnull=False).order_by(
            "pool_id").values_list("pool_id", "live_rating"):
        pool_ranks_lock(pool_id)
        written += _renumber(pool_id, [(rating, rating)], False)
    return written


def live_ranks_members_removed(*, member_ids: list[int]) -> int:
    """Before members are deleted: their rows of every pool go now (the deletion would take
    them) and the ranks of the rows below them close up. Returns the number of ranks written."""
    rows = list(PoolMember.objects.filter(member_id__in=member_ids).order_by("pool_id").values_list(
        "pk", "pool_id", "live_rating"))
    if not rows:
        return 0
    pools: dict[int, list[float]] = {}
    for _pk, pool_id, rating in rows:
        pools.setdefault(pool_id, [])
        if rating is not None:
            pools[pool_id].append(rating)
    for pool_id in pools:  # (in the pools' order: two deletions never wait for each other's lock)
        pool_ranks_lock(pool_id)
    PoolMember.objects.filter(pk__in=[row[0] for row in rows]).delete()
    written = 0
    for pool_id, ratings in pools.items():
        written += live_ranks_renumber(pool_id, [(rating, None) for rating in ratings])
        pool_cache_bump(pool_id=pool_id)
    return written


def _renumber(pool_id: int, bands: list[tuple[float, float]], leaving: bool) -> int:
    """Renumber one or two disjoint bands (low, high), the upper first."""
    (low1, high1), (low2, high2) = bands[0], bands[-1]
    rows = plain_rows(_bands_sql(), [pool_id, high1, float("inf"), pool_id, high2, low1,
                                     pool_id, low1, high1, low2, high2, pool_id, leaving])
    updates = [(None, row[0]) for row in rows if row[1] is None]
    above = 0
    for index, (low, high) in enumerate(bands):
        band = [row for row in rows if row[1] is not None and low <= row[1] <= high]
        # The rank of the last row above the band, which keeps it; for the lower band, when no row
        # lies between the two, the upper band's last place.
        above = next((row[6 + index] for row in rows if row[6 + index] is not None), above)
        band.sort(key=lambda row: rank_key(row[1], row[4], row[5], row[3]))
        updates += [(above + place, row[0]) for place, row in enumerate(band, start=1)
                    if row[2] != above + place]
        above += len(band)
    rows_update(PoolMember, ("id",), ("live_rank",), updates)
    return len(updates)


def live_ranks_ordered(rows: Iterable[tuple[int, float | None, str, str]]) -> dict[int, int | None]:
    """The live rank of every row of a pool, from (member, live rating, last name, first name) of
    all its rows, in the order of ``rank_key`` (None without a live rating): for a write of every
    member's live values at once (closing and reopening a period), which then writes the ranks
    with them, instead of a second write of the rows whose rank moved (``live_ranks_renumber``)."""
    rows = list(rows)
    rated = sorted((row for row in rows if row[1] is not None),
                   key=lambda row: rank_key(row[1], row[2], row[3], row[0]))
    ranks: dict[int, int | None] = {row[0]: None for row in rows}
    ranks.update((row[0], place) for place, row in enumerate(rated, start=1))
    return ranks
