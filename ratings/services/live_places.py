"""A few members' new places on the live list, found before their live ratings are written
(``PoolMember.live_place`` and the levels of ``ratings.live_level``; the order of
``ratings.lists.order``).

A result save changes two members' live ratings (a few more when a newcomer's group is
involved). Its cost must not grow with the pool, nor with the members its players pass: a row's
rank is its level's count of rows rated above plus its place among its ties, so a mover changes
only the levels between his old and his new rating (their count above moves by one: one level
per rating point passed, instead of a rank in every row passed) and the places of the ties he
leaves and joins. Those ties are read in one statement with the movers (their names, to order
them) and, for each new rating without a level yet, the rows rated above it (the nearest level
above: its count above plus its size).

The places and levels are consistent when this runs (every write of live ratings keeps them so,
under the pool's rank lock, ``live_ranks.pool_ranks_lock``, which the caller holds): the read
sees the ratings, places and levels the last save committed.
"""

from __future__ import annotations

import bisect
import functools
from collections import Counter

from clubrating.clubs.models import Member
from clubrating.core.db import plain_execute, plain_rows, server_bound
from ratings.lists.order import rank_key
from ratings.models import LiveLevel, PoolMember
from ratings.services.db import rows_update, rows_update_statement

# At most this many members written at once are placed one by one; more (a period's
# evaluation moves thousands) are written first and the pool's places and levels rebuilt
# (``live_ranks.live_ranks_renumber``), which reads the pool once for all of them.
FEW = 64
_NONE = float("-inf")  # off the list: below every rating


@functools.cache
def _read_sql(written: int, ratings: int) -> str:
    """The written members (kind 0: id, member, live rating, place, names), the rows rated as a
    new rating (kind 1, likewise), the rows rated as a written member's old rating and no new one
    (kind 3, without names: the rows staying there keep their order) and, per new rating, the
    rows rated above it (kind 2: the rating, that count). Parameters: pool, the written members,
    pool, the new ratings, pool, the written members, pool, the new ratings, then pool and the
    rating twice per new rating. (The old ratings are joined to the rows, so that even a generic
    plan finds them on the live rating's index: with ``IN (subquery)`` PostgreSQL read the whole
    pool.)"""
    pm, m, level = PoolMember._meta.db_table, Member._meta.db_table, LiveLevel._meta.db_table
    members = ", ".join(["%s"] * written)
    new = ", ".join(["%s"] * ratings)
    columns = "pm.id, pm.member_id, pm.live_rating, pm.live_place"
    named = f"{columns}, m.last_name, m.first_name FROM {pm} AS pm JOIN {m} AS m ON m.id = pm.member_id"
    held = f"SELECT DISTINCT live_rating AS rating FROM {pm} WHERE pool_id = %s AND member_id IN ({members})"
    above = (f"SELECT 2, NULL, NULL, %s, (SELECT above + size FROM {level} WHERE pool_id = %s "
             "AND rating > %s ORDER BY rating LIMIT 1), NULL, NULL")
    return " UNION ALL ".join([
        f"SELECT 0, {named} WHERE pm.pool_id = %s AND pm.member_id IN ({members})",
        *([f"SELECT 1, {named} WHERE pm.pool_id = %s AND pm.live_rating IN ({new})"] if ratings else []),
        f"SELECT 3, {columns}, NULL, NULL FROM ({held}) AS lv JOIN {pm} AS pm ON pm.pool_id = %s "
        "AND pm.live_rating = lv.rating" + (f" WHERE lv.rating NOT IN ({new})" if ratings else ""),
        *[above] * ratings,
    ])


@functools.cache
def _levels_sql(bands: int, sizes: int, gone: int) -> str:
    """Move the count above of the levels within ``bands`` (each: lowest rating, the rating
    above the highest, difference) and set the size of ``sizes`` levels, leaving out ``gone``
    levels (deleted in the same statement on PostgreSQL). Parameters: per band its three values,
    per size its rating and size, the pool, per band its two ratings, per size its rating, the
    gone ratings."""
    moved = " + ".join(["CASE WHEN rating >= %s AND rating < %s THEN %s ELSE 0 END"] * bands) or "0"
    sized = " ".join(["WHEN rating = %s THEN %s"] * sizes)
    where = ["rating >= %s AND rating < %s"] * bands + (
        [f"rating IN ({', '.join(['%s'] * sizes)})"] if sizes else [])
    return (f"UPDATE {LiveLevel._meta.db_table} SET above = above + {moved}, "
            f"size = {f'CASE {sized} ELSE size END' if sizes else 'size'} "
            f"WHERE pool_id = %s AND ({' OR '.join(where)})"
            + (f" AND rating NOT IN ({', '.join(['%s'] * gone)})" if gone else ""))


def live_ranks_place(pool_id: int, written: dict[int, float | None], *, write=None
                     ) -> dict[int, int | None] | None:
    """Before the live ratings ``written`` (member -> new live rating) are stored: write the
    levels and the places of the other rows that the members whose rating changes move, and
    return every written member's new place, to be stored with his live values (None: off the
    list). None when more than ``FEW`` members are written or one has no row yet: the caller
    then writes the ratings and rebuilds the places and levels (``live_ranks.live_ranks_renumber``).
    The caller holds the pool's rank lock.

    ``write`` (PostgreSQL): a function of the places returning the caller's write of the members'
    rows with them, as (SQL, parameters); it is run here, in the levels' statement (one round
    trip), whenever places are returned."""
    if not written:
        return {}
    if len(written) > FEW:
        return None
    members = sorted(written)
    new_ratings = sorted({r for r in written.values() if r is not None})
    params: list = [pool_id, *members, *([pool_id, *new_ratings] if new_ratings else []), pool_id, *members,
                    pool_id, *new_ratings]
    for rating in new_ratings:
        params += [rating, pool_id, rating]
    rows: dict[int, tuple] = {}  # member -> (id, live rating, place, last name, first name)
    higher: dict[float, int] = {}  # new rating -> the rows rated above it now
    for kind, pk, member, rating, place, last, first in plain_rows(_read_sql(len(members), len(new_ratings)),
                                                                   params):
        if kind == 2:
            higher[rating] = place or 0
        elif kind != 3 or member not in rows:  # (a written member's row with his names)
            rows[member] = (pk, rating, place, last, first)
    if any(m not in rows for m in members):
        return None
    old = {m: rows[m][1] for m in members}
    movers = [m for m in members if old[m] != written[m]]
    places = {m: rows[m][2] for m in members}
    if not movers:
        if write is not None:
            plain_execute(*write(places))
        return places
    final = {member: written.get(member, row[1]) for member, row in rows.items()}
    levels = {r for m in movers for r in (old[m], written[m]) if r is not None}
    updates = []  # (place, id) of the other rows whose place changes
    staying: dict[float, list[int]] = {level: [] for level in levels}  # the rows a level keeps
    joining: dict[float, list[int]] = {level: [] for level in levels}  # the rows it gains
    for member, row in rows.items():
        if final[member] in levels:
            (staying if row[1] == final[member] else joining)[final[member]].append(member)
    for level in levels:
        # The rows that stay on the level keep their order (their stored places); each member
        # joining it is put in by a binary search, folding only the names it is compared with.
        keys: dict[int, tuple] = {}

        def key(member: int, level=level, keys=keys) -> tuple:
            if member not in keys:
                keys[member] = rank_key(level, rows[member][3], rows[member][4], member)
            return keys[member]

        tied = sorted(staying[level], key=lambda m: rows[m][2])
        for member in sorted(joining[level], key=key):
            tied.insert(bisect.bisect_left(tied, key(member), key=key), member)
        for place, member in enumerate(tied, start=1):
            if member in written:
                places[member] = place
            elif rows[member][2] != place:
                updates.append((place, rows[member][0]))
    for m in movers:
        if written[m] is None:
            places[m] = None
    _levels_write(pool_id, [(old[m], written[m]) for m in movers], levels, rows, final, higher, updates,
                  [] if write is None else [write(places)])
    return places


def _levels_write(pool_id: int, moves: list[tuple], levels: set[float], rows: dict, final: dict,
                  higher: dict[float, int], placed: list[tuple[int, int]], also: list[tuple] = ()) -> None:
    """Write the levels after the ``moves`` (old, new rating) and the ``placed`` rows' places
    (place, id). A mover going up is now above every level from his old rating up to his new
    one (excluded), one going down no longer is above those from his new rating up to his old
    one; the sizes of the ``levels`` the movers leave and join are counted from the rows read,
    an emptied level goes, a new one is inserted with the rows above it. On PostgreSQL all in
    one statement (one round trip: data-modifying ``WITH``), with the ``also`` statements
    (the caller's write of the members' rows, PostgreSQL only)."""
    bands = []
    for before, after in moves:
        low, high = sorted((_NONE if before is None else before, _NONE if after is None else after))
        bands.append((low, high, 1 if (_NONE if after is None else after) > low else -1))
    before = Counter(row[1] for row in rows.values() if row[1] in levels)
    after = Counter(rating for rating in final.values() if rating in levels)
    table = LiveLevel._meta.db_table
    writes: list[tuple[str, list]] = []
    gone = [r for r in levels if before[r] and not after[r]]
    if gone:
        listed = ", ".join(["%s"] * len(gone))
        writes.append((f"DELETE FROM {table} WHERE pool_id = %s AND rating IN ({listed})", [pool_id, *gone]))
    sizes = [(r, after[r]) for r in levels if before[r] and after[r] and before[r] != after[r]]
    writes.append((_levels_sql(len(bands), len(sizes), len(gone)), [
        *(v for band in bands for v in band), *(v for size in sizes for v in size), pool_id,
        *(v for band in bands for v in band[:2]), *(r for r, _size in sizes), *gone]))
    new = []
    for r in levels:
        if after[r] and not before[r]:
            moved = sum(1 for low, high, d in bands if low <= r < high and d > 0) - sum(
                1 for low, high, d in bands if low <= r < high and d < 0)
            new += [pool_id, r, higher.get(r, 0) + moved, after[r]]
    if new:
        writes.append((f"INSERT INTO {table} (pool_id, rating, above, size) VALUES "
                       + ", ".join(["(%s, %s, %s, %s)"] * (len(new) // 4)), new))
    if not server_bound():
        for sql, params in writes:
            plain_execute(sql, params)
        rows_update(PoolMember, ("id",), ("live_place",), placed)
        return
    if placed:
        writes.append(rows_update_statement(PoolMember, ("id",), ("live_place",), placed))
    writes += also  # (other rows than ``placed``: a row may be written once per statement)
    *first, (sql, params) = writes
    if first:
        sql = "WITH " + ", ".join(f"w{i} AS ({s})" for i, (s, _p) in enumerate(first)) + " " + sql
    plain_execute(sql, [*(v for _s, p in first for v in p), *params])
