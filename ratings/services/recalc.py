"""Rebuild every rating record of a pool from its games (published lists stay as they are)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.tournaments.models import WHITE_SCORE, Game, Tournament
from ratings.models import PeriodState, RatingPeriod, RatingPool, RatingRecord
from ratings.services.bulk import rows_insert
from ratings.services.evaluation import (
    Published,
    Rec,
    _write_members,
    evaluate,
    peak_ratings,
    pending_sides,
    pool_state,
)
from ratings.services.lists import current_list, list_values, pool_members_ensure
from ratings.services.pools import pool_lock, pool_tournaments_filter


@dataclass(slots=True)
class _Row:
    """A rating record to insert; the fields are the table's columns (``COLUMNS``)."""

    pool_id: int
    period_id: int | None
    game_id: int
    member_id: int
    opponent_id: int
    white: bool
    played_on: datetime.date
    score: float
    pending: bool = False
    solo: bool = False
    own_rating: float | None = None
    opponent_rating: float | None = None
    difference: float | None = None
    expected: float | None = None
    factor: float | None = None
    change: float | None = None


COLUMNS = tuple(f.name for f in fields(_Row))
_values = attrgetter(*COLUMNS)
# What the engine computed for a side of a game (its GameCalc attributes of the same names).
CALCULATED = ("own_rating", "opponent_rating", "difference", "expected", "factor", "change")


class _PoolGame(NamedTuple):
    id: int
    white: int
    black: int
    score: float  # white's
    played_on: datetime.date


def _pool_games(pool: RatingPool) -> list[_PoolGame]:
    rows = (
        Game.objects.filter(round__tournament__in=Tournament.objects.filter(pool_tournaments_filter(pool)))
        .rateable().with_played_on()
        .values_list("id", "white_id", "black_id", "rated_result", "day")
    )
    return [
        _PoolGame(gid, white, black, WHITE_SCORE[rated], day)
        for gid, white, black, rated, day in rows
        if day >= pool.start_date
    ]


@transaction.atomic
def pool_recalculate(*, pool: RatingPool, progress: Callable[[int, str], None] | None = None) -> int:
    """Delete and rebuild the pool's records period by period, each against the list that was
    in force for it, carrying pending games as closing did. Returns the number of records.
    ``progress(percent, step)`` hears how far it is (a background job's page shows it)."""
    report = progress or (lambda percent, step: None)
    pool = pool_lock(pool)
    report(2, _("Reading the games"))
    periods = list(RatingPeriod.objects.filter(pool=pool).order_by("start"))
    birth = {m: p.birth_year for m, p in pool_state(pool).items()}
    RatingRecord.objects.filter(pool=pool).delete()
    rows: dict[int, _Row] = {}  # by Rec id (a counter)
    by_period: dict[int | None, list[Rec]] = {p.pk: [] for p in periods}
    by_period[None] = []
    next_id = 0
    for game in _pool_games(pool):
        period = next((p for p in periods if p.start <= game.played_on <= p.end), None)
        for member, opp, is_white, score in (
            (game.white, game.black, True, game.score),
            (game.black, game.white, False, 1.0 - game.score),
        ):
            next_id += 1
            rows[next_id] = _Row(pool.pk, period.pk if period else None, game.id, member, opp, is_white,
                                 game.played_on, score)
            by_period[period.pk if period else None].append(
                Rec(next_id, game.id, member, opp, is_white, score, False)
            )
    open_state = pool_state(pool)
    for index, period in enumerate(periods):
        report(
            5 + 85 * index // max(1, len(periods)),
            _("Period %(start)s – %(end)s")
            % {"start": f"{period.start:%d.%m.%Y}", "end": f"{period.end:%d.%m.%Y}"},
        )
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
        calc = {(c.game.key, c.player): c for c in result.games}
        pending = pending_sides(result)
        for r in recs:
            row = rows[r.id]
            c = calc.get((r.game_id, r.member_id))
            row.pending = (r.game_id, r.member_id) in pending
            if c is not None:
                for name in CALCULATED:
                    setattr(row, name, getattr(c, name))
            elif row.pending and period.state != PeriodState.OPEN:
                nxt = periods[index + 1]
                row.period_id, row.solo = nxt.pk, (r.game_id, r.opponent_id) not in pending
                by_period[nxt.pk].append(
                    Rec(r.id, r.game_id, r.member_id, r.opponent_id, r.white, r.score, row.solo)
                )
        if period.state == PeriodState.OPEN:
            members = {r.member_id for r in recs}
            pool_members_ensure(pool, members)
            _write_members(pool, result, state, set(open_state) | members)
    pool_members_ensure(pool, {r.member_id for r in by_period[None]})
    report(92, _("Writing the rating records"))
    rows_insert(RatingRecord, COLUMNS, (_values(row) for row in rows.values()))
    return len(rows)
