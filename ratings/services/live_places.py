"""A few members' new places on the live list, found before their live ratings are written
(``PoolMember.live_rank``; the order of ``ratings.lists.order``).

A result save changes two members' live ratings (a few more when a newcomer's group is
involved). Its cost must not grow with the pool: each mover's new place is found by index seeks
on the stored order (the rows rated exactly as his new rating, and the rank of the last row rated
above it), the rows he passes are shifted by one statement that reads them on the live rating's
index (their ratings lie between his old and new rating), and his own rank is written with his
live values. Reading and writing are proportional to the ranks that move; no name is folded but
those of the movers and of the rows tied with their new ratings.

How the ranks are computed: take the movers out of the list (the other rows keep their order;
the row of old rank ``r`` becomes the ``i(r)``-th of them), then put each mover back after the
``q`` rows of that shortened list that rank ahead of his new rating and name. ``q`` is the
number of rows ahead of him in the stored list (a seek) less the movers counted in it (movers
ahead of him are exactly those whose old rank is at most that number). A row's new rank is
``i(r)`` plus the movers put back ahead of it; movers put back after the same row are ordered
by their own places. The difference to the old rank changes only at the movers' old ranks and
where they are put back, so the rows to shift fall into a few rank ranges, each shifted by a
constant: one ``UPDATE`` with a ``CASE`` per range.

The stored ranks are consistent when this runs (every write of live ratings keeps them so,
under the pool's rank lock, ``live_ranks.pool_ranks_lock``, which the caller holds): the read
sees the ratings and ranks the last save committed.
"""

from __future__ import annotations

import bisect
import functools

from clubrating.clubs.models import Member
from clubrating.core.db import plain_execute, plain_rows
from ratings.lists.order import rank_key
from ratings.models import PoolMember

# At most this many members written at once are placed one by one; more (a period's
# evaluation moves thousands) are written first and their bands renumbered
# (``live_ranks.live_ranks_renumber``), which reads each band once for all of them. A save
# whose newcomer group moves a few dozen members is still placed: at 20,000 members placing
# 18 / 64 members scattered over the list cost 47 / 130 ms of CPU, renumbering their bands
# 273 / 345 ms.
FEW = 64
_LAST = 2**31 - 1  # the end of the list, for a range that runs to it
_INF = float("inf")


@functools.cache
def _read_sql(written: int, ratings: int) -> str:
    """The written members' rows (kind 0: member, live rating, rank, names), the rows rated as
    one of the new ratings (kind 1, likewise) and, per new rating, the rank of the last row rated
    above it (kind 2: the rating, that rank). Parameters: pool, the written members, pool, the
    new ratings, then pool and a rating per new rating."""
    pm, m = PoolMember._meta.db_table, Member._meta.db_table
    rows = (f"SELECT {{kind}}, pm.member_id, pm.live_rating, pm.live_rank, m.last_name, m.first_name "
            f"FROM {pm} AS pm JOIN {m} AS m ON m.id = pm.member_id WHERE pm.pool_id = %s AND {{where}}")
    parts = [rows.format(kind=0, where=f"pm.member_id IN ({', '.join(['%s'] * written)})")]
    if ratings:
        parts.append(rows.format(kind=1, where=f"pm.live_rating IN ({', '.join(['%s'] * ratings)})"))
        above = (f"SELECT 2, NULL, %s, (SELECT live_rank FROM {pm} WHERE pool_id = %s AND live_rating > %s "
                 "ORDER BY live_rating, live_rank DESC LIMIT 1), NULL, NULL")
        parts += [above] * ratings
    return " UNION ALL ".join(parts)


@functools.cache
def _shift_sql(written: int, bands: int, ranges: int) -> str:
    """Shift the ranks of the rows (not written) rated within one of ``bands`` whose rank lies in
    one of ``ranges`` by that range's difference. Parameters: per range its first and last rank
    and the difference, the pool, per band its lowest and highest rating, per range its first
    and last rank again, the written members."""
    cases = " ".join(["WHEN live_rank BETWEEN %s AND %s THEN %s"] * ranges)
    return (
        f"UPDATE {PoolMember._meta.db_table} SET live_rank = live_rank + CASE {cases} ELSE 0 END "
        "WHERE pool_id = %s AND (" + " OR ".join(["live_rating BETWEEN %s AND %s"] * bands) + ") AND ("
        + " OR ".join(["live_rank BETWEEN %s AND %s"] * ranges) + ") "
        f"AND member_id NOT IN ({', '.join(['%s'] * written)})"
    )


def live_ranks_place(pool_id: int, written: dict[int, float | None]) -> dict[int, int | None] | None:
    """Before the live ratings ``written`` (member -> new live rating) are stored: shift the
    ranks of the rows that the members whose rating changes pass, and return every written
    member's new rank, to be stored with his live values (None: off the list). None when more
    than ``FEW`` members are written or one has no row yet: the caller then writes the ratings
    and renumbers their bands (``live_ranks.live_ranks_renumber``). The caller holds the pool's
    rank lock."""
    if not written:
        return {}
    if len(written) > FEW:
        return None
    members = sorted(written)
    new_ratings = sorted({r for r in written.values() if r is not None})
    params: list = [pool_id, *members]
    if new_ratings:
        params += [pool_id, *new_ratings]
        for rating in new_ratings:
            params += [rating, pool_id, rating]
    old: dict[int, tuple] = {}  # member -> (live rating, rank, last name, first name)
    ties: dict[float, list[tuple[int, tuple]]] = {}  # rating -> [(rank, rank_key)]
    above: dict[float, int] = {}  # rating -> the rank of the last row rated above it
    read = plain_rows(_read_sql(len(members), len(new_ratings)), params)
    for kind, member, rating, rank, last, first in read:
        if kind == 0:
            old[member] = (rating, rank, last, first)
        elif kind == 1:
            ties.setdefault(rating, []).append((rank, rank_key(rating, last, first, member)))
        else:
            above[rating] = rank or 0
    if len(old) != len(members):
        return None
    movers = [m for m in members if old[m][0] != written[m]]
    if not movers:
        return {m: old[m][1] for m in members}
    gone = sorted(old[m][1] for m in movers if old[m][1] is not None)  # the movers' old ranks
    # Each mover put back with a new rating: (q, his key, member).
    back = []
    for m in movers:
        rating = written[m]
        if rating is None:
            continue
        key = rank_key(rating, old[m][2], old[m][3], m)
        tied = ties.get(rating, [])
        ahead = [rank for rank, other in tied if other < key]
        if ahead:
            count = max(ahead)  # the ties hold consecutive ranks
        elif tied:
            count = min(rank for rank, _key in tied) - 1
        else:
            count = above.get(rating, 0)
        back.append((count - bisect.bisect_right(gone, count), key, m))
    back.sort()
    places = [q for q, _key, _m in back]

    def index(rank: int) -> int:  # the place of a row that stays among the rows that stay
        return rank - bisect.bisect_left(gone, rank)

    def new_rank(rank: int) -> int:
        i = index(rank)
        return i + bisect.bisect_left(places, i)

    def old_rank(i: int) -> int:  # the old rank of the i-th row that stays
        rank = i
        for g in gone:
            if g <= rank:
                rank += 1
        return rank

    ranks = {m: (None if old[m][1] is None or m in movers else new_rank(old[m][1])) for m in members}
    ranks.update({m: q + place for place, (q, _key, m) in enumerate(back, start=1)})
    # The rows that stay, in ranges of old ranks shifted alike.
    starts = sorted({1, *(g + 1 for g in gone), *(old_rank(q + 1) for q in places)})
    ranges: list[list[int]] = []  # [first, last, difference]
    for start, end in zip(starts, [*starts[1:], _LAST + 1], strict=True):
        if start in gone:
            continue  # (a mover's own rank: a range of one)
        difference = new_rank(start) - start
        if ranges and ranges[-1][1] == start - 1 and ranges[-1][2] == difference:
            ranges[-1][1] = end - 1
        else:
            ranges.append([start, end - 1, difference])
    ranges = [r for r in ranges if r[2] != 0]
    if ranges:
        # The rows a mover passes are rated between his old and his new rating (or below the one
        # he has when he enters or leaves the list): the live rating's index finds them.
        bands = sorted((min(pair) if None not in pair else -_INF, max(v for v in pair if v is not None))
                       for pair in ((old[m][0], written[m]) for m in movers))
        joined = [list(bands[0])]
        for low, high in bands[1:]:
            if low <= joined[-1][1]:
                joined[-1][1] = max(high, joined[-1][1])
            else:
                joined.append([low, high])
        plain_execute(_shift_sql(len(members), len(joined), len(ranges)), [
            *(v for r in ranges for v in r), pool_id, *(v for band in joined for v in band),
            *(v for r in ranges for v in r[:2]), *members])
    return ranks
