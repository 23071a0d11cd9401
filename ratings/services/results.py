"""Recording, correcting and deleting a game's result, with its ratings, in one transaction."""

from __future__ import annotations

from django.db import connection, transaction
from django.utils.translation import gettext as _

from clubrating.core.db import plain_execute, plain_rows, prepared_cursor, server_bound
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import WHITE_SCORE, Game
from clubrating.tournaments.recording import game_result_record
from ratings.models import PeriodState, PoolMember, RatingPeriod, RatingPool, RatingRecord
from ratings.services.db import (
    generic_plans,
    members_lock,
    members_try_lock,
    writers_serialised,
)
from ratings.services.errors import RatingsError
from ratings.services.evaluation import members_reevaluate
from ratings.services.pools import (
    pool_lock,
    pools_share_lock,
    tournament_pool_starts,
    tournament_pool_starts_sql,
    tournament_pools,
)


def closed_period_refusal(day, period: RatingPeriod, pool: RatingPool) -> RatingsError:
    """The one refusal of a change to a game in a closed period: ``day`` is the date the game
    has in that period (for a game moved out of it, its date there, not the new one)."""
    return RatingsError(
        _(
            "The game of %(day)s lies in the closed rating period %(period)s of “%(pool)s”; "
            "it cannot be changed unless the period is reopened."
        )
        % {
            "day": day.strftime("%d.%m.%Y"),
            "period": f"{period.start:%d.%m.%Y}–{period.end:%d.%m.%Y}",
            "pool": pool.name,
        }
    )


def _touched(game: Game) -> tuple[list[RatingPool], set[int], dict, dict, dict]:
    """Lock and return the pools a change of ``game`` touches: those rating it on its (new)
    date and those holding its (old) records, with the period of the date and the periods of
    the old records per pool, and per pool rating it whether its records keep all but their
    scores and whether both players are rated (``game_records_rebuild``'s ``rescore`` and
    ``rated``). Refused if any of them is closed."""
    day = game.played_on
    tournament = game.round.tournament
    # The game's records may lie elsewhere (its date was edited, its tournament unlinked): those
    # periods are re-evaluated too, and a closed one keeps them. (Plain SQL, here and for the
    # periods below: a save repeats these small reads, and the ORM took longer to build them
    # than the database to answer; prepared on PostgreSQL, where the pools rating the
    # tournament come in the same statement.)
    if server_bound() and tournament.rated:
        starts, params = tournament_pool_starts_sql(tournament, day)
        rows = plain_rows(f"SELECT 0, t.id, NULL, NULL, NULL, NULL, NULL, t.rates FROM ({starts}) AS t "
                          f"UNION ALL SELECT 1, {_HELD_SQL.removeprefix('SELECT ')}", [*params, day, game.pk])
        rating = {row[1] for row in rows if row[0] == 0 and row[7]}
        records = [row[1:] for row in rows if row[0] == 1]
    else:
        rating = {pk for pk, start in tournament_pool_starts(tournament).items() if start <= day}
        records = plain_rows(_HELD_SQL, [day, game.pk])
    held: dict[int, set[int | None]] = {}  # pool -> the periods of its records
    sides: dict[int, list[tuple]] = {}  # pool -> its records: period, member, opponent, white, solo, day
    for pool_id, period_id, *side in records:
        held.setdefault(pool_id, set()).add(period_id)
        sides.setdefault(pool_id, []).append((period_id, *side))
    # Saves of different games run side by side: each locks the members it touches.
    pools = pools_share_lock(rating | held.keys())
    # With one pool (the common save) both players are locked in the periods' read when both
    # are rated (``_periods``): their save needs no savepoint and locks no one else.
    lock = len(pools) == 1 and pools[0].pk in rating
    found, rated = _periods([pk for periods in held.values() for pk in periods if pk is not None],
                            [pool.pk for pool in pools if pool.pk in rating], day,
                            [game.white_id, game.black_id], lock=lock)
    periods, former = {}, {}
    for pool in pools:
        old = held.get(pool.pk, set())
        former[pool.pk] = [p for p in found if p.pk in old]
        for p in former[pool.pk]:
            if p.state == PeriodState.CLOSED:
                there = RatingRecord.objects.filter(game=game, period=p).values_list("played_on", flat=True)
                raise closed_period_refusal(there.first(), p, pool)
        period = None
        if pool.pk in rating:
            period = next((p for p in found if p.pool_id == pool.pk and p.start <= day <= p.end), None)
        if period is not None and period.state == PeriodState.CLOSED:
            raise closed_period_refusal(day, period, pool)
        periods[pool.pk] = period
    rescore = {pk for pk in rating if _records_kept(game, periods.get(pk), sides.get(pk, []))}
    kept = {pk: (pk in rescore, pk in rated, lock and pk in rated) for pk in rating}
    return pools, rating, periods, former, kept


# The game's records (``_touched``): their pools and periods, and whether they are the records
# a new result of the game keeps (``_records_kept``). Parameters: the game's date, the game.
_HELD_SQL = (
    "SELECT pool_id, period_id, member_id, opponent_id, white, solo, played_on = %s "
    f"FROM {RatingRecord._meta.db_table} WHERE game_id = %s"
)


def _records_kept(game: Game, period: RatingPeriod | None, sides: list[tuple]) -> bool:
    """Whether a pool's stored records of ``game`` (``sides``, as ``_HELD_SQL`` reads them) are
    those a new rated result of it has: the game's two sides, in the open ``period`` of its date,
    neither carried alone, with the game's players, colours and date. Then only their scores
    change (``game_records_rebuild``'s ``rescore``). The game's row is locked, and the records
    follow the game's and its round's dates, which stay as they are while the save holds them."""
    if period is None or not period.is_open or len(sides) != 2:
        return False
    expected = {(period.pk, game.white_id, game.black_id, True, False, True),
                (period.pk, game.black_id, game.white_id, False, False, True)}
    return {(p, m, o, bool(w), bool(solo), bool(same)) for p, m, o, w, solo, same in sides} == expected


def _periods(ids: list[int], rating_pools: list[int], day, players: list[int], *, lock: bool = False
             ) -> tuple[list[RatingPeriod], set[int]]:
    """Every period a save needs, in one query: those of ``ids`` (the old records') and those of
    ``rating_pools`` holding ``day``; and on PostgreSQL the pools (of those periods) where both
    ``players`` have a published rating. Read under the pools' lock, which every publication of
    ratings takes exclusively: while the save holds it they stay rated, and a change of their
    game then touches no other member (``evaluation._affected``). ``lock`` (the periods are of
    one pool): where both are rated, their member locks (``members_lock``) are taken in the same
    statement, in ascending order; the statements after it see what their last holder committed."""
    if not ids and not rating_pools:
        return [], set()
    quote = connection.ops.quote_name
    where = []
    params: list = []
    if ids:
        where.append(f"id IN ({', '.join(['%s'] * len(ids))})")
        params += ids
    if rating_pools:
        where.append(
            f"(pool_id IN ({', '.join(['%s'] * len(rating_pools))}) "
            f"AND {quote('start')} <= %s AND {quote('end')} >= %s)"
        )
        params += [*rating_pools, day, day]
    fields = [f.attname for f in RatingPeriod._meta.concrete_fields]
    columns = ", ".join(quote(f.column) for f in RatingPeriod._meta.concrete_fields)
    sql = f"SELECT {columns} FROM {RatingPeriod._meta.db_table} WHERE {' OR '.join(where)}"
    if not server_bound():  # (SQLite's dates need Django's converters; it locks no members)
        return list(RatingPeriod.objects.raw(sql, params)), set()
    periods = RatingPeriod._meta.db_table
    rated = (f"SELECT count(*) FROM {PoolMember._meta.db_table} AS pm WHERE pm.pool_id = {periods}.pool_id "
             "AND pm.member_id IN (%s, %s) AND pm.rating IS NOT NULL")
    if lock:  # (the count of locks taken: 2 where both are rated; the same pair of keys as members_lock)
        rated = (f"SELECT CASE WHEN ({rated}) = 2 THEN (SELECT count(pg_advisory_xact_lock("
                 f"{periods}.pool_id::integer, l.m::integer)) FROM (SELECT unnest(ARRAY[%s, %s]::bigint[]) "
                 "AS m ORDER BY 1) AS l) ELSE 0 END")
    with prepared_cursor() as cursor:
        cursor.execute(sql.replace(" FROM ", f", ({rated}) FROM ", 1),
                       [*players, *(players if lock else []), *params])
        rows = cursor.fetchall()
    n = len(fields)
    return ([RatingPeriod.from_db(connection.alias, fields, row[:n]) for row in rows],
            {row[1] for row in rows if row[n] == len(set(players))})


def _rebuild(game: Game, pools, rating, periods, former, kept) -> None:
    for pool in pools:
        rescore, rated, locked = kept.get(pool.pk, (False, False, False))
        game_records_rebuild(
            pool=pool,
            period=periods[pool.pk],
            games=[game] if pool.pk in rating else [],
            former=[game] if pool.pk not in rating else [],
            also=former[pool.pk],
            rescore=rescore,
            rated=rated,
            locked=locked,
        )


def _touched_many(games: list[Game]):
    """``_touched`` for many games in a fixed number of queries: the pools they touch, locked
    (shared), and per pool the games to rate by period, the games it no longer rates and the
    periods of their old records. Refused if any of them lies in a closed period."""
    starts: dict[int, dict[int, object]] = {}  # tournament -> {pool: start}
    rating: dict[int, set[int]] = {}  # game -> the pools rating it on its date
    for game in games:
        tournament = game.round.tournament
        if tournament.pk not in starts:
            starts[tournament.pk] = tournament_pool_starts(tournament)
        rating[game.pk] = {pk for pk, start in starts[tournament.pk].items() if start <= game.played_on}
    held: dict[int, dict[int, set[int | None]]] = {}  # game -> pool -> the periods of its records
    for game_id, pool_id, period_id in RatingRecord.objects.filter(game__in=games).values_list(
        "game_id", "pool_id", "period_id"
    ):
        held.setdefault(game_id, {}).setdefault(pool_id, set()).add(period_id)
    pool_ids = set().union(*rating.values(), *(h.keys() for h in held.values()))
    pools = pools_share_lock(pool_ids)
    periods = list(RatingPeriod.objects.filter(pool__in=pool_ids).order_by("start"))
    by_pk = {p.pk: p for p in periods}
    plan = {pool.pk: {"pool": pool, "games": {}, "former": [], "also": {}} for pool in pools}
    for game in games:
        day = game.played_on
        for pool_id, old in held.get(game.pk, {}).items():
            for period_id in old - {None}:
                period = by_pk[period_id]
                if period.state == PeriodState.CLOSED:
                    there = RatingRecord.objects.filter(game=game, period=period).values_list("played_on",
                                                                                              flat=True)
                    raise closed_period_refusal(there.first(), period, plan[pool_id]["pool"])
                plan[pool_id]["also"][period_id] = period
            if pool_id not in rating[game.pk]:
                plan[pool_id]["former"].append(game)
        for pool_id in rating[game.pk]:
            period = next((p for p in periods if p.pool_id == pool_id and p.start <= day <= p.end), None)
            if period is not None and period.state == PeriodState.CLOSED:
                raise closed_period_refusal(day, period, plan[pool_id]["pool"])
            plan[pool_id]["games"].setdefault(period, []).append(game)
    return plan


def _rebuild_many(plan) -> None:
    """Each pool's records of the games replaced, one period at a time, every period touched
    evaluated once for the lot (``game_records_rebuild``)."""
    for entry in plan.values():
        groups = list(entry["games"].items()) or [(None, [])]
        for index, (period, games) in enumerate(groups):
            first = index == 0  # the games the pool no longer rates, and their periods, once
            game_records_rebuild(
                pool=entry["pool"], period=period, games=games,
                former=entry["former"] if first else [],
                also=list(entry["also"].values()) if first else [],
            )


class ResultRater:
    """How a recorded result is rated (``clubrating.tournaments.recording``, which owns the
    recording and calls this in its transaction, under the game's lock): ``prepare`` locks the
    pools the change touches (shared) and refuses a game in a closed period of any pool that
    rates its tournament; ``rate`` replaces the game's rating records and re-evaluates what
    they touch."""

    def scope(self):
        return generic_plans()

    def prepare(self, game: Game):
        return _touched(game)

    def rate(self, game: Game, prepared) -> None:
        _rebuild(game, *prepared)

    def prepare_many(self, games: list[Game]):
        return _touched_many(games)

    def rate_many(self, games: list[Game], prepared) -> None:
        _rebuild_many(prepared)


def game_record_result(
    *, game: Game, result: str, rated_result: str | None = None, user=None, seen: str | None = None,
    reason: str = "",
) -> Game:
    """``clubrating.tournaments.recording.game_result_record``, the one owner of recording a
    result, for callers that compose with the ratings; a stale save is refused as a
    ``RatingsError`` (``code="stale"``), as these callers have always been told."""
    try:
        return game_result_record(game=game, result=result, rated_result=rated_result, user=user, seen=seen,
                                  reason=reason)
    except TournamentRefused as refused:
        if refused.code != "stale":
            raise
        raise RatingsError(str(refused), code="stale") from refused




def game_records_rebuild(
    *,
    pool: RatingPool,
    period: RatingPeriod | None,
    games: list[Game],
    former: list[Game] = (),
    also: list[RatingPeriod] = (),
    rescore: bool = False,
    rated: bool = False,
    locked: bool = False,
) -> None:
    """Replace the records of ``games`` (all in ``period``, None = after the open period), drop
    those of ``former`` (no longer rated in the pool), and re-evaluate what they touch in
    ``period`` and the ``also`` periods the old records lay in. Callers hold the pool lock or
    its shared form (``pool_share_lock``).

    ``rescore``: the one game's stored records are those its new result has (``_records_kept``),
    so only their scores change; ``rated``: both its players have a published rating (read under
    the pool's lock), so the change touches no other member. With both (the common save), the
    records are re-evaluated with the new scores in hand and written once, scores and
    calculations together, and nothing beyond the two players is locked: no savepoint is needed.
    ``locked``: the two players' member locks are held already (``_periods``).

    Under the shared form, the members whose records or live values the change rewrites are
    locked first (``members_lock``): the two players, and where a newcomer is involved its group
    and the group's opponents (``evaluation._affected``). A rated player's calculation reads only
    its own records, published values and the start values of newcomers it met; every save that
    could change those rewrites that player and therefore locks it too. The set is found after
    locking the players; members beyond them are then locked without waiting and the set is
    found again. If one of them is held elsewhere, the attempt is rolled back to a savepoint
    (which releases its locks) and repeated with the whole set locked at once in ascending order:
    a save never waits while holding locks out of that order, so two saves cannot deadlock.
    """
    seeds = {m for game in [*games, *former] for m in (game.white_id, game.black_id)}
    open_periods = [p for p in {p.pk: p for p in [period, *also] if p is not None}.values() if p.is_open]
    if (rescore and len(games) == 1 and not former and games[0].is_rateable and open_periods == [period]
            and (rated or writers_serialised())):
        game = games[0]
        if not locked:
            members_lock(pool, seeds)
        kept = (game.pk, game.white_id, game.black_id, WHITE_SCORE[game.rated_result])
        touched = members_reevaluate(pool, period, seeds, locked=None if writers_serialised() else seeds,
                                     rescore=kept)
        if touched is not None and (writers_serialised() or touched <= seeds):
            return
        # (Not reached: the records were read as kept under the game's lock, and rated players
        # touch no one else. Nothing was written; the general way below replaces the records.)
    if writers_serialised():  # nothing to lock
        _records_replace(pool, period, games, former, seeds)
        for p in open_periods:
            members_reevaluate(pool, p, seeds)
        return
    locked = set(seeds)
    savepoint = transaction.savepoint()
    members_lock(pool, locked)
    _records_replace(pool, period, games, former, seeds)
    while True:
        reach: set[int] = set()
        for p in open_periods:
            reach |= members_reevaluate(pool, p, seeds, locked=locked)
        if reach <= locked:
            transaction.savepoint_commit(savepoint)
            return
        if not members_try_lock(pool, reach - locked):
            transaction.savepoint_rollback(savepoint)
            savepoint = transaction.savepoint()
            members_lock(pool, locked | reach)
            _records_replace(pool, period, games, former, seeds)
        locked |= reach


def _records_replace(
    pool: RatingPool, period: RatingPeriod | None, games: list[Game], former: list[Game], seeds: set[int]
) -> None:
    new = _records(pool, [(g, period.pk if period else None) for g in games])
    if not former and _records_rescore(pool, new):
        return
    RatingRecord.objects.filter(pool=pool, game__in=[*games, *former]).delete()
    RatingRecord.objects.bulk_create(new)
    PoolMember.objects.bulk_create([PoolMember(pool=pool, member_id=m) for m in seeds], ignore_conflicts=True)


def _records_rescore(pool: RatingPool, new: list[RatingRecord]) -> bool:
    """The common change, a new result of one game whose records exist (same players, colours,
    date and period): the stored records take the new scores in one statement, keeping what they
    held, so that the evaluation afterwards writes only what moves. False (nothing changed: the
    caller replaces the records) when a record is missing or differs otherwise. Plain SQL: the
    ORM took longer to build this statement than the database to run it."""
    if len(new) != 2 or new[0].game_id != new[1].game_id or new[0].white == new[1].white:
        return False
    white, black = new if new[0].white else new[::-1]
    period = "period_id IS NULL" if white.period_id is None else "period_id = %s"
    changed = plain_execute(
        f"UPDATE {RatingRecord._meta.db_table} SET score = CASE WHEN white THEN %s ELSE %s END "
        f"WHERE pool_id = %s AND game_id = %s AND played_on = %s AND {period} AND NOT solo "
        "AND ((white AND member_id = %s AND opponent_id = %s) "
        "OR (NOT white AND member_id = %s AND opponent_id = %s))",
        [white.score, black.score, pool.pk, white.game_id, white.played_on,
         *([] if white.period_id is None else [white.period_id]),
         white.member_id, white.opponent_id, black.member_id, black.opponent_id],
    )
    return changed == 2


def tournament_ratings_update(*, tournament, pool: RatingPool | None = None) -> int:
    """(Re)build the records of every game of ``tournament`` in ``pool`` (linking it), or in every
    pool that rates it; for games created in bulk, e.g. by the TRF import. Returns the records
    written. Refused when a game lies in a closed period."""
    from ratings.services.evaluation import period_evaluate
    from ratings.services.lists import pool_members_ensure
    from ratings.services.pools import tournament_rate_in_pool

    if pool is not None:
        tournament_rate_in_pool(tournament=tournament, pool=pool)
    games = list(Game.objects.filter(round__tournament=tournament).select_related("round__tournament"))
    written = 0
    for pool in [pool_lock(p) for p in tournament_pools(tournament)]:
        periods = list(RatingPeriod.objects.filter(pool=pool).order_by("start"))
        by_period: dict[int | None, list[Game]] = {}
        for game in games:
            day = game.played_on
            if day < pool.start_date:
                continue
            period = next((p for p in periods if p.start <= day <= p.end), None)
            if period is not None and period.state == PeriodState.CLOSED and game.rated_result:
                raise RatingsError(
                    _(
                        "The tournament “%(name)s” has games in the closed rating period "
                        "%(period)s of “%(pool)s”."
                    )
                    % {
                        "name": tournament.name,
                        "pool": pool.name,
                        "period": f"{period.start:%d.%m.%Y}–{period.end:%d.%m.%Y}",
                    }
                )
            by_period.setdefault(period.pk if period else None, []).append(game)
        RatingRecord.objects.filter(pool=pool, game__in=games).delete()
        new = _records(pool, [(g, pid) for pid, gs in by_period.items() for g in gs])
        RatingRecord.objects.bulk_create(new, batch_size=500)
        pool_members_ensure(pool, {r.member_id for r in new})
        written += len(new)
        open_one = next((p for p in periods if p.state == PeriodState.OPEN), None)
        if open_one is not None and open_one.pk in by_period:
            period_evaluate(pool, open_one)
    return written


def _records(pool: RatingPool, games: list[tuple[Game, int | None]]) -> list[RatingRecord]:
    new = []
    for game, period_id in games:
        # Forfeits and unrated games have no record (§1.5); a played game scored as a forfeit
        # carries its played result in rated_result.
        if not game.is_rateable:
            continue
        score = WHITE_SCORE[game.rated_result]
        for member, opponent, white, s in (
            (game.white_id, game.black_id, True, score),
            (game.black_id, game.white_id, False, 1.0 - score),
        ):
            new.append(
                RatingRecord(
                    pool=pool,
                    period_id=period_id,
                    game=game,
                    member_id=member,
                    opponent_id=opponent,
                    white=white,
                    played_on=game.played_on,
                    score=s,
                )
            )
    return new
