"""A member's year of birth corrected: his live values follow where the year decides his factor.

Under the FIDE Rating Regulations (2024; the development coefficient K) a junior (until the end of
the year of his 18th birthday) below 2300 has K = 40, so the year decides his rating change in
every game of the period. Closing publishes the members' live values (docs/rules.md §4), which
every change keeps equal to the engine's evaluation of the period; a corrected year of birth is
such a change. The evaluation reads the year from the member register each time, so evaluating his
games again gives the values a whole recalculation gives. Periods already closed keep their
published lists; a correction meant for one reopens it first (§4.3), and then reaches the period
waiting behind it: its kept calculation of the member is dropped, so closing again evaluates him
anew (``period_kept``)."""

from __future__ import annotations

from ratings.adapters import pool_rules
from ratings.models import PeriodState, PoolMember, RatingPeriod, RatingPool, RatingRecord
from ratings.services.evaluation import members_reevaluate
from ratings.services.pools import pool_lock


def live_values_member_born(*, member_id: int) -> int:
    """Evaluate the member's games of each open period again where the pool's rules give juniors
    their own factor; returns the number of pools evaluated. Called in the transaction that
    saved the new year of birth (``clubrating.clubs.register.member_born_notify``)."""
    pools = RatingPool.objects.filter(pk__in=PoolMember.objects.filter(member_id=member_id).values(
        "pool_id")).order_by("pk")  # (in the pools' order: two corrections never wait for each other)
    evaluated = 0
    for pool in pools:
        if pool_rules(pool).k_junior_age is None:
            continue
        pool = pool_lock(pool)
        period = RatingPeriod.objects.filter(pool=pool, state=PeriodState.OPEN).first()
        if period is not None and RatingRecord.objects.filter(
                pool=pool, period=period, member_id=member_id).exists():
            members_reevaluate(pool, period, {member_id})
            evaluated += 1
        # (None: no calculation kept for him; ``period_kept`` evaluates him when closing again)
        PoolMember.objects.filter(pool=pool, member_id=member_id, waiting_games__isnull=False).update(
            waiting_games=None)
    return evaluated
