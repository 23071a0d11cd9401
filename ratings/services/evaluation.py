"""Run the engine over a period's rating records and store what it computed.

Two entry points: ``period_evaluate`` (every record of a period, used by close, import,
reopen and recalculation) and ``members_reevaluate`` (the smallest set of records that a result
change can touch; see ``_affected`` for why that set is exact). Writes are set-based
(``ratings.services.db``), never a query per game or player.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy.ma  # noqa: F401 - see below
from django.db.models import Max, Q

from clubrating.clubs.models import Member
from clubrating.core.db import plain_execute
from ratings.adapters import pool_rules
from ratings.models import (
    ListEntry,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
)
from ratings.rules import vectorised  # noqa: F401 - see below
from ratings.rules.columns import games_from_sides
from ratings.rules.engine import evaluate_period
from ratings.rules.period import PeriodResult, PlayerIn
from ratings.rules.rounding import round_half_away
from ratings.services.cache import pool_cache_bump
from ratings.services.db import (
    COPY_FROM,
    binary_reads,
    fetch_rows,
    fetch_sql,
    rows_update,
    rows_update_statement,
)
from ratings.services.live_places import live_ranks_place
from ratings.services.live_ranks import (
    RANKS_LOCK_SQL,
    live_ranks_renumber,
    pool_ranks_lock,
    ranks_lock_params,
)

# The engine's vectorised evaluation (imported by ``evaluate_period`` when first used, as it
# imports that module) and NumPy's masked arrays (loaded by its first ``np.unique``) are imported
# with this service: a server's worker forked from a loaded process then has them ready, instead
# of loading them in an official's first save.

RECORD_FIELDS = ("id", "game_id", "member_id", "opponent_id", "white", "score", "solo")
# The calculation as stored, then the score it was made with (``RatingRecord.rated_score``).
CALC_FIELDS = (
    "pending", "own_rating", "opponent_rating", "difference", "expected", "factor", "change", "rated_score"
)
# PoolMember's published columns (the list in force), as ``state_from_entries`` writes them.
PUBLISHED_FIELDS = ("rating", "games_count", "reached_2400")
# PoolMember's live columns in the order of ``live_values``.
LIVE_FIELDS = (
    "live_rating", "live_change", "live_games", "live_points", "live_expected", "start_value", "pending_games"
)


class Rec(NamedTuple):
    """A side of a game as stored (a tuple: a period's hundreds of thousands are built fast)."""

    id: int
    game_id: int
    member_id: int
    opponent_id: int
    white: bool
    score: float
    solo: bool  # carried for this side only (the other side was rated in an earlier period)
    stored: tuple | None = None  # CALC_FIELDS as stored, to write only what changed


# Where ``games_from_sides`` finds a side's game, member, opponent, colour, score and solo flag.
SIDE_FIELDS = tuple(
    Rec._fields.index(f) for f in ("game_id", "member_id", "opponent_id", "white", "score", "solo")
)


@dataclass(slots=True)
class Published:
    """A member's published values, the input of every calculation in a period."""

    rating: float | None
    games_count: int = 0
    reached_2400: bool = False
    birth_year: int | None = None
    peak_rating: float | None = None  # highest rating on the pool's lists so far (FIDE K 10)
    live_rating: float | None = None  # as stored: a write of live values renumbers from it


State = dict[int, Published]


def peak_ratings(
    pool: RatingPool, member_ids: Iterable[int] | None = None, *, upto: PublishedList | None = None
) -> dict[int, float]:
    """Each member's highest rating on the pool's lists in force up to ``upto`` (default: all),
    for rule sets whose K depends on it (FIDE Rating Regulations 8.3.3: K 10 "once a player's
    published rating has reached 2400", even when it falls below later). A superseded list and
    the list of a reopened period do not count: they are no longer, or not yet again, published.
    Other rule sets do not use the peak: no query, an empty answer."""
    if pool_rules(pool).factor != "fide":
        return {}
    qs = ListEntry.objects.filter(list__pool=pool, list__superseded=False).filter(
        Q(list__period__isnull=True) | Q(list__period__state=PeriodState.CLOSED)
    )
    if upto is not None:
        qs = qs.filter(list__pk__lte=upto.pk)
    if member_ids is not None:
        qs = qs.filter(member_id__in=list(member_ids))
    return dict(qs.values("member_id").annotate(peak=Max("rating")).values_list("member_id", "peak"))


def pool_state(pool: RatingPool, member_ids: Iterable[int] | None = None) -> State:
    """Published values from PoolMember (mirrors the pool's latest list)."""
    if member_ids is not None:
        member_ids = list(member_ids)
        if not member_ids:
            return {}
    if member_ids is not None and binary_reads():
        rows = fetch_sql(_state_sql(), [pool.pk, member_ids])
    else:
        # No default order: it joins the pools and sorts every member by live rating, for a dict.
        qs = PoolMember.objects.filter(pool=pool).order_by()
        if member_ids is not None:
            qs = qs.filter(member_id__in=member_ids)
        rows = qs.values_list(*STATE_FIELDS)
    peaks = peak_ratings(pool, member_ids)
    return {
        mid: Published(rating, games, reached, bdate.year if bdate else byear, peaks.get(mid), live)
        for mid, rating, games, reached, bdate, byear, live in rows
    }


def _load(pool: RatingPool, period: RatingPeriod, member_ids: set[int] | None) -> list[Rec]:
    if member_ids is not None and binary_reads():
        if not member_ids:
            return []
        n = len(RECORD_FIELDS)
        rows = fetch_sql(_records_sql(), [pool.pk, period.pk, list(member_ids)])
        return [Rec(*row[:n], row[n:]) for row in rows]
    qs = RatingRecord.objects.filter(pool=pool, period=period)
    if member_ids is not None:
        qs = qs.filter(member_id__in=list(member_ids))
    return load_records(qs)


# The members' reads of a result save (``_affected``) as plain SQL on PostgreSQL, built once:
# the same columns, order and filter as the querysets above.
STATE_FIELDS = (
    "member_id", "rating", "games_count", "reached_2400", "member__birth_date", "member__birth_year",
    "live_rating",
)


@functools.cache
def _state_sql() -> str:
    pm, m = PoolMember._meta, Member._meta
    return (
        "SELECT pm.member_id, pm.rating, pm.games_count, pm.reached_2400, m.birth_date, m.birth_year, "
        "pm.live_rating "
        f"FROM {pm.db_table} AS pm JOIN {m.db_table} AS m ON m.id = pm.member_id "
        "WHERE pm.pool_id = %s AND pm.member_id = ANY(%s)"
    )


@functools.cache
def _records_sql() -> str:
    by_name = {f.attname: f.column for f in RatingRecord._meta.concrete_fields}
    columns = ", ".join(by_name[name] for name in (*RECORD_FIELDS, *CALC_FIELDS))
    return (
        f"SELECT {columns} FROM {RatingRecord._meta.db_table} "
        "WHERE pool_id = %s AND period_id = %s AND member_id = ANY(%s) ORDER BY id"
    )


@functools.cache
def _records_state_sql() -> str:
    """``_records_sql`` and ``_state_sql`` of the records' members and opponents not yet known,
    in one statement (kind 0: a record; kind 1: a member's state, after the record's columns).
    Parameters: pool, period, members, pool, members, the members known."""
    n = len(RECORD_FIELDS) + len(CALC_FIELDS)
    records = _records_sql().removesuffix(" ORDER BY id")
    state = _state_sql().removesuffix("pm.member_id = ANY(%s)")
    return (
        f"WITH r AS ({records}) SELECT 0, r.*, {', '.join(['NULL'] * len(STATE_FIELDS))} FROM r "
        f"UNION ALL SELECT 1, {', '.join(['NULL'] * n)}, {state.removeprefix('SELECT ')}"
        "pm.member_id IN (SELECT unnest(%s::bigint[]) UNION SELECT opponent_id FROM r) "
        "AND NOT pm.member_id = ANY(%s::bigint[]) ORDER BY 1, 2"
    )


def _load_with_state(pool: RatingPool, period: RatingPeriod, ids: set[int], known) -> tuple[list[Rec], State]:
    """The records of ``ids`` in ``period`` and ``pool_state`` of their members and opponents
    but ``known``, in one read (PostgreSQL: a save's round trips are most of its cost)."""
    members = list(ids)
    rows = fetch_sql(_records_state_sql(), [pool.pk, period.pk, members, pool.pk, members, list(known)])
    n = len(RECORD_FIELDS)
    m = n + len(CALC_FIELDS) + 1
    recs = [Rec(*row[1:n + 1], row[n + 1:m]) for row in rows if row[0] == 0]
    states = [row[m:] for row in rows if row[0] == 1]
    peaks = peak_ratings(pool, [row[0] for row in states])
    return recs, {
        mid: Published(rating, games, reached, bdate.year if bdate else byear, peaks.get(mid), live)
        for mid, rating, games, reached, bdate, byear, live in states
    }


def load_records(qs, *, extra: tuple[str, ...] = ()) -> list[Rec]:
    """The records of ``qs`` as Recs; ``stored`` holds CALC_FIELDS as stored, then ``extra``.
    In id order, not the model's default order: that joins the games' tournaments and sorts a
    whole period's records by them (seconds at a federation's size, for nothing)."""
    n = len(RECORD_FIELDS)
    rows = fetch_rows(qs.order_by("pk").values_list(*RECORD_FIELDS, *CALC_FIELDS, *extra))
    return [Rec(*row[:n], row[n:]) for row in rows]


def evaluate(pool: RatingPool, period: RatingPeriod, state: State, recs: Iterable[Rec]) -> PeriodResult:
    # The records as columns, one game per game id (a period has hundreds of thousands).
    recs = recs if isinstance(recs, list) else list(recs)
    games = games_from_sides(recs, SIDE_FIELDS)
    players = []
    for key in games.player_keys():
        p = state.get(key) or Published(None)
        players.append(PlayerIn(key, p.rating, p.games_count, p.birth_year, p.reached_2400, p.peak_rating))
    return evaluate_period(pool_rules(pool), players, games, year=period.end.year)


def pending_sides(result: PeriodResult) -> set[tuple[int, int]]:
    """(game, member) pairs the engine carries to the next period."""
    sides = set()
    for g in result.pending:
        for member in [g.only_for] if g.only_for is not None else [g.white, g.black]:
            sides.add((g.key, member))
    return sides


def _write_records(result: PeriodResult, recs: Iterable[Rec], members: set[int] | None,
                   rescored: set[int] = frozenset(), *, ranks_lock: int | None = None) -> None:
    """Store what the engine computed, writing only the records whose values changed;
    ``rescored``: the ids of records whose score changed too (written with it); ``ranks_lock``
    (PostgreSQL): the pool whose rank lock to take in the same statement (one round trip less;
    the statement after it then sees what the lock's last holder committed)."""
    calc = result.side_rows()
    pending = pending_sides(result)
    uncalculated = (None,) * 6
    rows = []
    for r in recs:
        if members is not None and r.member_id not in members:
            continue
        key = (r.game_id, r.member_id)
        c = calc.get(key)
        values = (key in pending, *uncalculated, r.score) if c is None else (False, *c, r.score)
        if r.id in rescored:
            rows.append((r.score, *values, r.id))
        elif values != r.stored:
            rows.append(((r.score,) if rescored else ()) + (*values, r.id))
    columns = ("score", *CALC_FIELDS) if rescored else CALC_FIELDS
    if ranks_lock is None or not rows or len(rows) >= COPY_FROM:
        rows_update(RatingRecord, ("id",), columns, rows)
        if ranks_lock is not None:
            pool_ranks_lock(ranks_lock)
    else:
        sql, params = rows_update_statement(RatingRecord, ("id",), columns, rows)
        plain_execute(f"WITH w AS ({sql}) {RANKS_LOCK_SQL}", [*params, *ranks_lock_params(ranks_lock)])


def live_values(pool: RatingPool, result: PeriodResult, state: State, member_id: int) -> tuple:
    """(live_rating, live_change, games, points, expected, start_value, pending_games).

    Live = what closing the period now would publish: published + rounded sum of the period's
    changes (docs/rules.md, vocabulary), raised to the rules' floor; a newcomer's live rating is
    the start value the engine would publish now, if it would publish one.
    """
    published = (state.get(member_id) or Published(None)).rating
    pr = result.players.get(member_id)
    if pr is None:
        return (published, None, 0, 0.0, 0.0, None, 0)
    if published is None:
        live = pr.new_rating if pr.published else None
        change = None
    else:
        # What closing now would publish (the engine's new rating: the floor, §1.4, and the
        # rules' blend included), and the change to it, as the close preview shows it.
        decimals = pool_rules(pool).decimals
        new = pr.new_rating if pr.new_rating is not None else published + pr.rounded_change
        live = round_half_away(new, decimals)
        change = round_half_away(live - published, decimals) if pr.games else None
    return (live, change, pr.games, pr.points, pr.expected, pr.start_value, pr.pending_games)


def _write_members(
    pool: RatingPool,
    result: PeriodResult,
    state: State,
    members: Iterable[int],
    *,
    stored: dict | None = None,
    published: bool = False,
    ranks_locked: bool = False,
) -> None:
    """Store the members' live values; with ``stored`` (member -> the columns written, as
    stored), only those that changed (a whole period's evaluation moves few of a large pool's
    members). ``published``: also their published values (PUBLISHED_FIELDS) as ``state`` holds
    them, a new list's, in the same write (``stored`` then from ``stored_live_values(…,
    published=True)``): a row written twice in one transaction has its foreign keys checked
    again, and its indexes written twice."""
    rows = []
    moved = []  # (old, new) live rating of the rows written
    live = len(PUBLISHED_FIELDS) if published else 0  # where the live rating is in ``values``
    for mid in members:
        values = live_values(pool, result, state, mid)
        if published:
            p = state[mid]
            values = (p.rating, p.games_count, p.reached_2400, *values)
        if stored is None or stored.get(mid) != values:
            rows.append((*values, pool.pk, mid))
            if stored is None:
                old = (state.get(mid) or Published(None)).live_rating
            else:
                old = stored[mid][live] if mid in stored else None
            moved.append((old, values[live]))
    columns = (*PUBLISHED_FIELDS, *LIVE_FIELDS) if published else LIVE_FIELDS
    if rows and not ranks_locked:
        pool_ranks_lock(pool.pk)
    # A few members (a result save): their new ranks found first and written with their values
    # (on PostgreSQL in the statement that writes the levels); many (a period's evaluation):
    # their bands renumbered after the write.
    placed = (*columns, "live_place")

    def with_places(ranks: dict) -> list[tuple]:
        return [(*row[:-2], ranks[row[-1]], *row[-2:]) for row in rows]

    write = None
    if rows and binary_reads():
        def write(ranks: dict) -> tuple[str, list]:
            return rows_update_statement(PoolMember, ("pool_id", "member_id"), placed, with_places(ranks))

    ranks = live_ranks_place(pool.pk, {row[-1]: row[live] for row in rows}, write=write)
    if ranks is None:
        rows_update(PoolMember, ("pool_id", "member_id"), columns, rows)
        live_ranks_renumber(pool.pk, moved)
    elif write is None:
        rows_update(PoolMember, ("pool_id", "member_id"), placed, with_places(ranks))
    pool_cache_bump(pool_id=pool.pk)


def stored_live_values(pool: RatingPool, *, published: bool = False) -> dict[int, tuple]:
    """Every member's live values as stored (LIVE_FIELDS; with ``published``, PUBLISHED_FIELDS
    first), to write only what changes."""
    columns = (*PUBLISHED_FIELDS, *LIVE_FIELDS) if published else LIVE_FIELDS
    rows = fetch_rows(PoolMember.objects.filter(pool=pool).order_by().values_list("member_id", *columns))
    return {mid: tuple(values) for mid, *values in rows}


def period_evaluate(
    pool: RatingPool, period: RatingPeriod, *, live: bool = True
) -> tuple[PeriodResult, State, list[Rec]]:
    """Evaluate every record of ``period`` against the pool's published state and store it;
    ``live=False`` skips the live values (closing replaces them with the new list at once)."""
    state = pool_state(pool)
    recs = _load(pool, period, None)
    result = evaluate(pool, period, state, recs)
    _write_records(result, recs, None)
    if live:
        _write_members(pool, result, state, state.keys(), stored=stored_live_values(pool))
    return result, state, recs


def _affected(
    pool: RatingPool,
    period: RatingPeriod,
    seeds: set[int],
    *,
    published: dict[int, tuple] | None = None,
    moved: set[int] = frozenset(),
) -> tuple[set[int], list[Rec], State]:
    """Members whose records and live values a change to the seeds' games can move, and the
    records needed to evaluate them exactly.

    A rated player's record depends only on the published values of both players, so only the
    seeds change, unless a newcomer is involved: then every newcomer connected to it by games
    (its group, §1.6) and every opponent of that group. To evaluate those members exactly, all
    their games are loaded, and so are the whole groups of any other newcomers they met (whose
    start values their records use).

    ``published``: the published values (as ``published_values`` gives them; every other member
    a newcomer) to evaluate against instead of PoolMember's (a list not yet stored). ``moved``:
    seeds whose published values changed, so that every opponent's calculation moves too.
    """
    state: State = {}
    recs: dict[int, Rec] = {}
    loaded: set[int] = set()
    newcomer_values = (None, 0, False)

    def load(ids: set[int]) -> list[Rec]:
        ids = ids - loaded
        if not ids:
            return []
        loaded.update(ids)
        if binary_reads():  # the records and the state of their members in one read
            new, found = _load_with_state(pool, period, ids, state.keys())
        else:
            new = _load(pool, period, ids)
            # The members and their opponents in one read (the seeds' state comes with their opponents').
            found = pool_state(pool, (ids | {r.opponent_id for r in new}) - state.keys())
        if published is not None:
            for mid, p in found.items():
                p.rating, p.games_count, p.reached_2400 = published.get(mid, newcomer_values)
        state.update(found)
        for r in new:
            recs[r.id] = r
        return new

    def newcomer(mid: int) -> bool:
        return (state.get(mid) or Published(None)).rating is None

    load(seeds)
    if moved:
        seeds = set(seeds) | {r.opponent_id for r in recs.values() if r.member_id in moved}
        load(seeds)
    group = {m for m in seeds if newcomer(m)}
    frontier = set(group)
    while frontier:
        load(frontier)
        reached = {r.opponent_id for r in recs.values() if r.member_id in group and newcomer(r.opponent_id)}
        frontier = reached - group
        group |= frontier
    affected = set(seeds) | group | {r.opponent_id for r in recs.values() if r.member_id in group}
    frontier = set(affected)
    while frontier:
        load(frontier)
        frontier = {r.opponent_id for r in recs.values() if newcomer(r.opponent_id)} - loaded
    # In id order, as a whole period's evaluation reads them: every player's sums then add his
    # games in the same order, to the bit (a game's two sides are stored one after the other).
    return affected, sorted(recs.values(), key=lambda r: r.id), state


def members_reevaluate(
    pool: RatingPool, period: RatingPeriod, seeds: set[int], *, locked: set[int] | None = None,
    rescore: tuple[int, int, int, float] | None = None,
) -> set[int] | None:
    """Re-evaluate what a change of the seeds' games touches; returns the members it touches.

    With ``locked`` (the members the caller holds locks on), nothing is written when the
    change touches members beyond them: the caller locks the returned set and tries again.
    ``rescore``: (game, white, black, white's score) of a game whose stored records keep
    everything but their scores: they are evaluated with the new scores and written with them,
    once. None (nothing written) if its records are not that game's two sides as stored.
    """
    affected, recs, state = _affected(pool, period, seeds)
    if locked is not None and not affected <= locked:
        return affected
    rescored: set[int] = frozenset()
    if rescore is not None:
        game_id, white, black, score = rescore
        sides = [r for r in recs if r.game_id == game_id]
        if sorted((r.white, r.member_id, r.opponent_id, r.solo) for r in sides) != [
                (False, black, white, False), (True, white, black, False)]:
            return None
        rescored = {r.id for r in sides}
        recs = [r._replace(score=score if r.white else 1.0 - score) if r.id in rescored else r for r in recs]
    result = evaluate(pool, period, state, recs)
    # The rank lock (held until the transaction ends, ``live_ranks.pool_ranks_lock``) is taken
    # with the records' write on PostgreSQL, right before the live values are written.
    locking = binary_reads()
    _write_records(result, recs, affected, rescored, ranks_lock=pool.pk if locking else None)
    _write_members(pool, result, state, affected, ranks_locked=locking)
    return affected
