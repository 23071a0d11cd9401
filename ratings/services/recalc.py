"""Rebuild every rating record of a pool from its games (published lists stay as they are)."""

from __future__ import annotations

import bisect
from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.tournaments.models import WHITE_SCORE, Game, Tournament
from ratings.models import PeriodState, RatingPeriod, RatingPool, RatingRecord
from ratings.services.db import fetch_rows, rows_delete, rows_insert, rows_update
from ratings.services.evaluation import (
    Published,
    Rec,
    _write_members,
    evaluate,
    peak_ratings,
    pending_sides,
    pool_state,
    stored_live_values,
)
from ratings.services.lists import current_list, list_values, pool_members_ensure
from ratings.services.pools import pool_lock, pool_tournaments_filter

# A record's columns: the key (pool, game, member) and the values compared with the stored row.
KEY = ("pool_id", "game_id", "member_id")
VALUES = (
    "period_id", "opponent_id", "white", "played_on", "score", "pending", "solo",
    "own_rating", "opponent_rating", "difference", "expected", "factor", "change", "rated_score",
)
PERIOD, SCORE, SOLO, PENDING, CALC, RATED = 0, 4, 6, 5, slice(7, 13), 13  # positions in VALUES
UNCALCULATED = (None,) * 6


def _pool_games(pool: RatingPool) -> list[tuple]:
    """(id, white, black, white's score, day) of every rated game of the pool, oldest first."""
    rows = fetch_rows(
        Game.objects.filter(round__tournament__in=Tournament.objects.filter(pool_tournaments_filter(pool)))
        .rateable().with_played_on()
        .values_list("id", "white_id", "black_id", "rated_result", "day")
        .order_by("pk")
    )
    start = pool.start_date
    return [
        (gid, white, black, WHITE_SCORE[rated], day) for gid, white, black, rated, day in rows if day >= start
    ]


def _stored(pool: RatingPool) -> dict[tuple[int, int], tuple]:
    """(game, member) -> (id, game, member, *VALUES) of the pool's records as stored."""
    records = RatingRecord.objects.filter(pool=pool).order_by()  # no default order: no joins, no sort
    rows = fetch_rows(records.values_list("id", "game_id", "member_id", *VALUES))
    return {(row[1], row[2]): row for row in rows}


def _write(pool: RatingPool, rows: dict[tuple[int, int], list], waiting: set[int]) -> None:
    """Make the stored records equal ``rows``, writing only the difference: a recalculation
    that finds what incremental updates already stored writes nothing (a federation pool has
    hundreds of thousands of records; rewriting them all took most of the time). A record that
    stays in a ``waiting`` period as it was (its game's players, colour, day and score) keeps its
    pending and solo flags and calculation as stored: no reader shows them, and closing the
    reopened period computes anew those the new list changes
    (``ratings.selectors.member.waiting_calculation_hidden``); a record that changed is left
    without calculation (``rated_score`` None), so that closing evaluates it."""
    stored = _stored(pool)
    inserts, updates = [], []
    kept = slice(3 + PENDING, None)  # (pending, solo and the calculation close VALUES)
    for key, values in rows.items():
        values = tuple(values)
        old = stored.pop(key, None)
        if (old is not None and values[PERIOD] in waiting and old[3 + PERIOD] == values[PERIOD]
                and old[3:3 + PENDING] == values[:PENDING]):
            values = (*values[:PENDING], *old[kept])
        if old is None:
            inserts.append((pool.pk, *key, *values))
        elif old[3:] != values:
            updates.append((*values, old[0]))
    rows_delete(RatingRecord, [row[0] for row in stored.values()])
    rows_update(RatingRecord, ("id",), VALUES, updates)
    rows_insert(RatingRecord, (*KEY, *VALUES), inserts)


@transaction.atomic
def pool_recalculate(*, pool: RatingPool, progress: Callable[[int, str], None] | None = None) -> int:
    """Rebuild the pool's records period by period, each against the list that was in force for
    it, carrying pending games as closing did. Returns the number of records.
    ``progress(percent, step)`` hears how far it is (a background job's page shows it)."""
    report = progress or (lambda percent, step: None)
    pool = pool_lock(pool)
    report(2, _("Reading the games"))
    periods = list(RatingPeriod.objects.filter(pool=pool).order_by("start"))
    starts = [p.start for p in periods]
    bounds = [(p.pk, p.end) for p in periods]
    open_state = pool_state(pool)
    birth = {m: p.birth_year for m, p in open_state.items()}
    # (game, member) -> VALUES, filled in below; recs index into ``keys``.
    rows: dict[tuple[int, int], list] = {}
    keys: list[tuple[int, int]] = []
    by_period: dict[int | None, list[Rec]] = {p.pk: [] for p in periods}
    by_period[None] = []
    for gid, white, black, score, day in _pool_games(pool):
        at = bisect.bisect_right(starts, day) - 1
        pid = bounds[at][0] if at >= 0 and day <= bounds[at][1] else None
        recs = by_period[pid]
        rows[gid, white] = [pid, black, True, day, score, False, False, *UNCALCULATED, None]
        rows[gid, black] = [pid, white, False, day, 1.0 - score, False, False, *UNCALCULATED, None]
        recs.append(Rec(len(keys), gid, white, black, True, score, False))
        recs.append(Rec(len(keys) + 1, gid, black, white, False, 1.0 - score, False))
        keys += ((gid, white), (gid, black))
    for index, period in enumerate(periods):
        report(
            5 + 85 * index // max(1, len(periods)),
            _("Period %(start)s – %(end)s")
            % {"start": f"{period.start:%d.%m.%Y}", "end": f"{period.end:%d.%m.%Y}"},
        )
        if period.state == PeriodState.WAITING:  # its games wait, uncalculated, until it opens
            continue
        if period.state == PeriodState.OPEN:
            state = open_state
        else:
            plist = period.lists.filter(superseded=False).first()
            base = current_list(pool, before=plist) if plist else None
            peaks = peak_ratings(pool, upto=base) if base else {}
            state = {
                m: Published(r, g, reached, birth.get(m), peaks.get(m))
                for m, (r, g, reached) in list_values(base).items()
            }
        recs = by_period[period.pk]
        result = evaluate(pool, period, state, recs)
        calc = result.side_rows()
        pending = pending_sides(result)
        for r in recs:
            key = keys[r.id]
            row = rows[key]
            c = calc.get(key)
            row[PENDING] = is_pending = key in pending
            row[RATED] = row[SCORE]
            if c is not None:
                row[CALC] = c
            elif is_pending and period.state != PeriodState.OPEN:
                nxt = periods[index + 1]
                row[PERIOD], row[SOLO] = nxt.pk, (r.game_id, r.opponent_id) not in pending
                row[RATED] = None  # (evaluated again in the period it is carried to)
                by_period[nxt.pk].append(
                    Rec(r.id, r.game_id, r.member_id, r.opponent_id, r.white, r.score, row[SOLO])
                )
        if period.state == PeriodState.OPEN:
            members = {r.member_id for r in recs}
            pool_members_ensure(pool, members)
            _write_members(pool, result, state, set(open_state) | members, stored=stored_live_values(pool))
    waiting = [None, *(p.pk for p in periods if p.state == PeriodState.WAITING)]
    pool_members_ensure(pool, {r.member_id for pid in waiting for r in by_period[pid]})
    report(92, _("Writing the rating records"))
    _write(pool, rows, {p.pk for p in periods if p.state == PeriodState.WAITING})
    return len(rows)
