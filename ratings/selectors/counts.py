"""How many members a pool's live list holds, read from the ranks kept with the live ratings.

Every write of live ratings renumbers the live ranks in the same transaction
(``ratings.services.live_ranks``): the list's ranks run 1, 2, … without gaps or ties, so the last
row's rank is the number of rows. The last row is the first on the live rating's index read
backwards (ties on the lowest rating read until their highest rank): a few index entries
however big the pool, where counting the rows read all of them (20,000 at 20,000 members, on
every cold start page and live list).
"""

from __future__ import annotations

from ratings.live_level import live_rank_expression
from ratings.models import PoolMember


def rated_members_count(*, pool_id: int) -> int:
    """The number of the pool's members with a live rating (the rows of its whole live list)."""
    rated = PoolMember.objects.filter(pool_id=pool_id, live_rating__isnull=False)
    last = rated.order_by("live_rating", "-live_place").annotate(live_rank=live_rank_expression())
    last = last.values_list("live_rank", flat=True).first()
    if last is None:
        # No rated member, or ranks not written yet (a row written outside the services):
        # counted, so that the figure is right whatever route wrote the ratings.
        return rated.count() if rated.exists() else 0
    return last
