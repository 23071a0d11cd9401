"""The pool's members written at once when a period is closed or reopened: every member's
published and live values with the live ranks they give, in one write of the rows that change.

Closing publishes a new list and opens the next period; reopening restores the list in force
before and the reopened period's live values. Both know every member's new values, so the live
places are computed once, from the whole pool's live ratings and names (``live_ranks_ordered``),
and written with them (the levels after them): no second write of the rows whose place moved,
and no row written twice in one transaction (its foreign keys would be checked again and its
indexes written twice).
"""

from __future__ import annotations

from collections.abc import Callable

from ratings.models import PoolMember, RatingPool
from ratings.services.cache import pool_cache_bump
from ratings.services.db import fetch_rows, rows_update
from ratings.services.evaluation import LIVE_FIELDS, PUBLISHED_FIELDS
from ratings.services.live_ranks import live_levels_store, live_ranks_ordered, pool_ranks_lock

COLUMNS = (*PUBLISHED_FIELDS, *LIVE_FIELDS)
_LIVE = len(PUBLISHED_FIELDS)  # where the live rating is in a row of COLUMNS
# The waiting period's live values kept while the period before it is reopened, in the order
# of LIVE_FIELDS (``ratings.services.period_kept``).
WAITING_FIELDS = (
    "waiting_rating", "waiting_change", "waiting_games", "waiting_points", "waiting_expected",
    "waiting_start_value", "waiting_pending_games",
)
_NOT_WAITING = (None,) * len(WAITING_FIELDS)


def pool_members_write(
    pool: RatingPool,
    values: dict[int, tuple] | Callable[[int], tuple],
    *,
    keep_waiting: bool = False,
    names: dict[int, tuple[str, str]] | None = None,
) -> int:
    """Store ``values`` (member -> COLUMNS, or a function of the member giving them for every
    row of the pool) and the live ranks of the whole pool; members not in a dict ``values`` keep
    theirs. Only rows whose values or rank change are written. Returns their number. The caller
    holds the pool's lock (closing, reopening). ``keep_waiting`` (reopening): the live values as
    stored (the period after the reopened one's) are kept in WAITING_FIELDS, in the same write;
    otherwise those are cleared. ``names``: the members' names as lists order them, if the
    caller has them (``lists.list_rows``)."""
    pool_ranks_lock(pool.pk)
    stored = fetch_rows(
        PoolMember.objects.filter(pool=pool).order_by().values_list(
            "member_id", *COLUMNS, "live_place", *WAITING_FIELDS, "member__last_name", "member__first_name"
        )
    )
    new = {}
    n = len(COLUMNS)
    for mid, *row in stored:
        if callable(values):
            value = tuple(values(mid))
        else:
            value = tuple(values[mid]) if mid in values else tuple(row[:n])
        new[mid] = (value, tuple(row[_LIVE:n]) if keep_waiting else _NOT_WAITING)
    ranks = live_ranks_ordered(((row[0], new[row[0]][0][_LIVE], row[-2], row[-1]) for row in stored), names)
    rows = []
    for mid, *row in stored:
        value, waiting = new[mid]
        if (*value, ranks[mid], *waiting) != tuple(row[:-2]):
            rows.append((*value, ranks[mid], *waiting, pool.pk, mid))
    rows_update(PoolMember, ("pool_id", "member_id"), (*COLUMNS, "live_place", *WAITING_FIELDS), rows)
    live_levels_store(pool.pk, [value[_LIVE] for value, _waiting in new.values() if value[_LIVE] is not None])
    pool_cache_bump(pool_id=pool.pk)
    return len(rows)
