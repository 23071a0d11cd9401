"""Rebuild every rating record of a pool from its games (published lists stay as they are)."""

from __future__ import annotations

from django.db import connection, transaction

from clubrating.tournaments.models import WHITE_SCORE, Game, Tournament
from ratings.models import PeriodState, RatingPeriod, RatingPool, RatingRecord
from ratings.services.evaluation import Published, Rec, _write_members, evaluate, pending_sides, pool_state
from ratings.services.lists import current_list, list_values, pool_members_ensure
from ratings.services.pools import pool_lock, pool_tournaments_filter

COLUMNS = (
    "pool_id",
    "period_id",
    "game_id",
    "member_id",
    "opponent_id",
    "white",
    "played_on",
    "score",
    "pending",
    "solo",
    "own_rating",
    "opponent_rating",
    "difference",
    "expected",
    "factor",
    "change",
)


def _pool_games(pool: RatingPool) -> list[tuple]:
    rows = Game.objects.filter(
        round__tournament__in=Tournament.objects.filter(pool_tournaments_filter(pool)),
        rated=True,
        rated_result__in=list(WHITE_SCORE),
    ).values_list(
        "id", "white_id", "black_id", "rated_result", "date", "round__date", "round__tournament__start_date"
    )
    games = []
    for gid, white, black, rated, day, round_day, t_start in rows:
        played_on = day or round_day or t_start
        if played_on >= pool.start_date:
            games.append((gid, white, black, WHITE_SCORE[rated], played_on))
    return games


@transaction.atomic
def pool_recalculate(*, pool: RatingPool) -> int:
    """Delete and rebuild the pool's records period by period, each against the list that was
    in force for it, carrying pending games as closing did. Returns the number of records."""
    pool = pool_lock(pool)
    periods = list(RatingPeriod.objects.filter(pool=pool).order_by("start"))
    birth = {m: p.birth_year for m, p in pool_state(pool).items()}
    RatingRecord.objects.filter(pool=pool).delete()
    rows: dict[int, list] = {}  # Rec id (a counter) -> column values
    by_period: dict[int | None, list[Rec]] = {p.pk: [] for p in periods}
    by_period[None] = []
    next_id = 0
    for gid, white, black, score, played_on in _pool_games(pool):
        period = next((p for p in periods if p.start <= played_on <= p.end), None)
        for member, opp, is_white, s in ((white, black, True, score), (black, white, False, 1.0 - score)):
            next_id += 1
            rows[next_id] = [
                pool.pk,
                period.pk if period else None,
                gid,
                member,
                opp,
                is_white,
                played_on,
                s,
                False,
                False,
                None,
                None,
                None,
                None,
                None,
                None,
            ]
            by_period[period.pk if period else None].append(
                Rec(next_id, gid, member, opp, is_white, s, False)
            )
    open_state = pool_state(pool)
    for index, period in enumerate(periods):
        if period.state == PeriodState.OPEN:
            state = open_state
        else:
            plist = period.lists.filter(superseded=False).first()
            base = current_list(pool, before=plist) if plist else None
            state = {
                m: Published(r, g, reached, birth.get(m)) for m, (r, g, reached) in list_values(base).items()
            }
        recs = by_period[period.pk]
        result = evaluate(pool, period, state, recs)
        calc = {(c.game.key, c.player): c for c in result.games}
        pending = pending_sides(result)
        for r in recs:
            row = rows[r.id]
            c = calc.get((r.game_id, r.member_id))
            row[8] = (r.game_id, r.member_id) in pending
            if c is not None:
                row[10:16] = [c.own_rating, c.opponent_rating, c.difference, c.expected, c.factor, c.change]
            elif (r.game_id, r.member_id) in pending and period.state != PeriodState.OPEN:
                nxt = periods[index + 1]
                row[1], row[9] = nxt.pk, (r.game_id, r.opponent_id) not in pending
                by_period[nxt.pk].append(
                    Rec(r.id, r.game_id, r.member_id, r.opponent_id, r.white, r.score, row[9])
                )
        if period.state == PeriodState.OPEN:
            members = {r.member_id for r in recs}
            pool_members_ensure(pool, members)
            _write_members(pool, result, state, set(open_state) | members)
    pool_members_ensure(pool, {r.member_id for r in by_period[None]})
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {RatingRecord._meta.db_table} ({', '.join(COLUMNS)}) "
            f"VALUES ({', '.join(['%s'] * len(COLUMNS))})",
            list(rows.values()),
        )
    return len(rows)
