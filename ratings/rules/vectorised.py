"""Vectorised evaluation of one rating period with NumPy.

It computes exactly what ``evaluate_period_reference`` (``ratings.rules.period``) computes, in
arrays instead of one game at a time: per-game expectations, the players' totals, the newcomer
fixed-point iteration (spec §1.6, Jacobi rounds) and the pending games (§1.7). The reference
stays the readable definition; tests compare the two on random periods, float for float. Sums
run in the reference's order (``numpy.bincount`` adds in array order), and where the reference
uses ``math.fsum`` (newcomers) ``fsums`` gives the same correctly rounded sums.

The games come as ``GameIn`` tuples or as ``GameColumns`` (one array per field, what the
ratings service reads its stored records into). A player's ``PlayerResult`` is built when it
is first read (``PlayerTable``), the per-game details when ``games`` is first read.

Applies where every game is evaluated on its own with an expectation and a factor that arrays
can compute: the ``oesb`` and ``fide`` families. dsb-1990 (performance blend) and the EGF sets
(three decimals) use the reference.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat

import numpy as np

from ratings.rules.columns import GameColumns, _take, columns_from_games
from ratings.rules.expectation import POLYNOMIAL_LIMIT, TABLE_BANDS, logistic, polynomial_terms
from ratings.rules.newcomers import MAX_ROUNDS, TOLERANCE
from ratings.rules.performance import DP_TABLE
from ratings.rules.period import (
    VALID_SCORES,
    DeferredSide,
    GameIn,
    PeriodResult,
    PlayerIn,
    PlayerResult,
    _bad_game,
    _expectation,
    evaluate_period_reference,
)
from ratings.rules.player_table import PlayerTable, VectorisedResult
from ratings.rules.presets import Rules
from ratings.rules.rounding import round_half_away
from ratings.rules.sums import fsums

__all__ = ["applies", "evaluate_period_vectorised", "expected_scores", "round_half_away_array"]

VECTOR_EXPECTATIONS = ("polynomial", "table", "logistic")
VECTOR_FACTORS = ("oesb", "fide", "constant")
# Values this close to a rounding edge are rounded by ``round_half_away`` itself (it first cuts
# to 9 decimals), so that both evaluations round every total the same way.
_EDGE = 1e-6


def applies(rules: Rules) -> bool:
    return (
        rules.expectation in VECTOR_EXPECTATIONS
        and rules.factor in VECTOR_FACTORS
        and rules.decimals == 0
        and not rules.blend_games
    )


def expected_scores(rules: Rules, own, opponent):
    """``expected_score`` for arrays of ratings, operation for operation the same."""
    d = own - opponent
    if rules.difference_cap is not None:
        capped = np.clip(d, -rules.difference_cap, rules.difference_cap)
        # FIDE Rating Regulations 8.3.1 (from 1 October 2025): full difference for 2650+.
        d = capped if rules.full_difference_from is None else np.where(
            own >= rules.full_difference_from, d, capped
        )
    if d.size > 4096:
        # Whole-number differences (chess ratings): E once per difference that occurs, from
        # the same function, so the values are the same.
        low, high = d.min(), d.max()
        if high - low <= 20000 and np.array_equal(d, np.floor(d)):
            lookup = _of_difference(rules, np.arange(low, high + 1))
            return lookup[(d - low).astype(np.int64)]
    return _of_difference(rules, d)


def _of_difference(rules: Rules, d):
    if rules.expectation == "table":
        hundredths = np.searchsorted(TABLE_BANDS, np.ceil(np.abs(d) - 1e-9), side="left")
        return np.where(d >= 0, (50 + hundredths) / 100, (50 - hundredths) / 100)
    if rules.expectation == "polynomial":
        a = np.abs(d)
        e = np.where(a > POLYNOMIAL_LIMIT, 1.0, polynomial_terms(a))
        return np.where(d >= 0, e, 1.0 - e)
    # The logistic curve raises 10 to a fractional power: NumPy's SIMD power (SVML on AVX-512
    # processors) may differ from the C library's pow in the last bit, so each distinct
    # difference goes through the scalar formula the reference uses.
    if d.size <= 64:
        return np.array([logistic(x) for x in d.tolist()], float)
    distinct, where = np.unique(d, return_inverse=True)
    return np.array([logistic(x) for x in distinct.tolist()], float)[where.reshape(d.shape)]


def round_half_away_array(values):
    """Whole numbers, half away from zero, as ``round_half_away`` rounds each value."""
    size = np.abs(values)
    out = np.copysign(np.floor(size + 0.5), values)
    edge = np.flatnonzero(np.abs(size - np.floor(size) - 0.5) < _EDGE)
    for i in edge.tolist():
        out[i] = round_half_away(float(values[i]))
    return out


_DP = np.array([DP_TABLE[h] if h >= 50 else -DP_TABLE[100 - h] for h in range(101)], float)


def _factors(rules: Rules, plist: list[PlayerIn], ratings, year: int | None):
    """F or K of every player (``development_factor``), before the K x n cap."""
    games_count = np.array([p.games_count for p in plist], float)
    if rules.factor == "oesb":
        f = (3400.0 - ratings) ** 2 / 100000.0
        if rules.factor_reduction:
            reduced = rules.reduction_numerator / np.where(games_count > 0, games_count, 1.0)
            f = np.where(games_count > 0, np.minimum(f, reduced), f)
        return f
    if rules.factor == "constant":
        return np.full(len(plist), float(rules.constant_factor))
    high_from = rules.k_high_from
    high = ratings >= high_from
    high |= np.array([p.reached_2400 or (p.peak_rating is not None and p.peak_rating >= high_from)
                      for p in plist], bool)
    k = np.where(high, float(rules.k_high), float(rules.k_standard))
    if rules.k_junior_age is not None and year is not None:
        junior = np.array([p.birth_year is not None and year - p.birth_year <= rules.k_junior_age
                           for p in plist], bool)
        k = np.where(junior & (ratings < rules.k_junior_below), float(rules.k_new), k)
    return np.where(games_count < rules.k_new_games, float(rules.k_new), k)


def _first_ratings(rules: Rules, n_players: int, rated, ratings, own, opp, score):
    """Start values of the newcomers from their sides (own, opponent, own score).

    Returns (value, valued, used side mask, opponent value per side, rounds)."""
    opp_rated = rated[opp]
    value = np.zeros(n_players)
    if rules.first_rating == "fide":
        # (public) FIDE first rating: games against rated players plus hypothetical draws.
        draws = rules.hypothetical_draws
        k, r = own[opp_rated], ratings[opp[opp_rated]]
        count = np.bincount(k, minlength=n_players)
        n = np.maximum(count + draws, 1)
        hypothetical = np.full(n_players, float(rules.hypothetical_rating * draws))
        average = fsums(k, r, n_players, start=hypothetical) / n
        p = (np.bincount(k, weights=score[opp_rated], minlength=n_players) + 0.5 * draws) / n
        valued = count > 0
        hundredths = round_half_away_array(np.where(valued, p, 0.0) * 100).astype(int)
        value = np.where(valued, average + _DP[hundredths], 0.0)
        return value, valued, valued[own] & opp_rated, ratings[opp], 1

    # Spec §1.6: rounds of the start formula until no value moves by more than 0.001, on
    # arrays of the newcomers only (position m of newcomer_keys[m]). The sums are the
    # reference's math.fsum sums (first over the rated opponents, then with the newcomers'
    # values of the last round), so the values are the same to the bit.
    newcomer = np.flatnonzero(~rated)
    m = len(newcomer)
    position = np.full(n_players, -1, np.int64)
    position[newcomer] = np.arange(m)
    fixed_k = position[own[opp_rated]]
    rsum = fsums(fixed_k, ratings[opp[opp_rated]], m)
    rn = np.bincount(fixed_k, minlength=m)
    rpts = np.bincount(fixed_k, weights=score[opp_rated], minlength=m)
    var_k, var_o, var_s = position[own[~opp_rated]], position[opp[~opp_rated]], score[~opp_rated]
    cur = np.zeros(m)
    known = np.zeros(m, bool)
    rounds = 0
    for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 - the last round number is reported
        live = known[var_o]
        k = var_k[live]
        vsum = fsums(k, cur[var_o[live]], m, start=rsum)
        n = rn + np.bincount(k, minlength=m)
        pts = rpts + np.bincount(k, weights=var_s[live], minlength=m)
        has = n > 0
        safe = np.where(has, n, 1)
        new = np.where(has, vsum / safe + rules.start_scale * (pts / safe - 0.5) * safe / (safe + 2), 0.0)
        done = bool((has == known).all() and (np.abs(new - cur)[has] <= TOLERANCE).all())
        cur, known = new, has
        if done:
            break
    value[newcomer] = cur
    valued = np.zeros(n_players, bool)
    valued[newcomer] = known
    opp_value = np.where(opp_rated, ratings[opp], value[opp])
    return value, valued, valued[own] & (opp_rated | valued[opp]), opp_value, rounds


def _publish_array(rules: Rules, values):
    published = round_half_away_array(values)
    if rules.first_rating_cap is not None:
        published = np.minimum(published, rules.first_rating_cap)
    if rules.floor is not None:
        published = np.maximum(published, rules.floor)
    return published


def _positions(keys: list, key_array, wanted, index: dict | None):
    """Positions of the keys ``wanted`` among the players' ``keys``, -1 for unknown keys.
    Whole-number keys in arrays (the usual case) are looked up in one step: through a table
    where the keys are dense, else a sorted search; other keys one by one in ``index``."""
    if key_array is not None and isinstance(wanted, np.ndarray) and wanted.dtype.kind in "iu" and keys:
        low, high = int(key_array.min()), int(key_array.max())
        if high - low <= 4 * len(keys) + 1024:  # dense ids: a lookup table
            table = np.full(high - low + 1, -1, np.int64)
            table[key_array - low] = np.arange(len(keys))
            inside = (wanted >= low) & (wanted <= high)
            return np.where(inside, table[np.where(inside, wanted - low, 0)], -1)
        order = np.argsort(key_array, kind="stable")
        ordered = key_array[order]
        found = np.minimum(np.searchsorted(ordered, wanted), len(ordered) - 1)
        return np.where(ordered[found] == wanted, order[found], -1)
    if index is None:
        index = {k: i for i, k in enumerate(keys)}
    values = wanted.tolist() if isinstance(wanted, np.ndarray) else wanted
    return np.fromiter(map(index.get, values, repeat(-1)), np.int64, len(values))


def _key_array(keys: list):
    """The players' keys as an integer array, or None where they are not all whole numbers."""
    if not keys:
        return None
    try:
        array = np.array(keys)
    except (OverflowError, ValueError):
        return None
    return array if array.ndim == 1 and array.dtype.kind in "iu" else None


def _interleave(first, second):
    out = np.empty(2 * len(first), dtype=np.result_type(first, second))
    out[0::2] = first
    out[1::2] = second
    return out


def evaluate_period_vectorised(
    rules: Rules,
    players: Iterable[PlayerIn],
    games: Iterable[GameIn] | GameColumns,
    *,
    year: int | None = None,
) -> PeriodResult:
    by_key = {p.key: p for p in players}
    plist = list(by_key.values())
    keys = list(by_key)
    n_players = len(keys)
    source = None
    if isinstance(games, GameColumns):
        columns = games
    else:
        source = games if isinstance(games, list) else list(games)
        columns = columns_from_games(source)
    if not isinstance(columns.score, np.ndarray):  # a score that is no number: the reference names the game
        return evaluate_period_reference(rules, plist, source or columns.to_games(), year=year)
    n_games = len(columns.score)
    rating_list = [p.rating for p in plist]
    rated = np.fromiter((r is not None for r in rating_list), bool, n_players)
    ratings = np.fromiter((np.nan if r is None else r for r in rating_list), float, n_players)

    key_array = _key_array(keys)
    index = None if key_array is not None else {k: i for i, k in enumerate(keys)}
    wi = _positions(keys, key_array, columns.white, index)
    bi = _positions(keys, key_array, columns.black, index)
    scores = columns.score.astype(float, copy=False)
    bad = (wi < 0) | (bi < 0) | (wi == bi) | ~np.isin(scores, VALID_SCORES)
    count_w = count_b = None  # every game counts for both sides
    if columns.only_for is not None:
        only = columns.only_for
        solo = np.flatnonzero(np.fromiter((o is not None for o in only), bool, n_games))
        solo_keys = [only[i] for i in solo.tolist()]
        solo_pos = _positions(keys, key_array, _array_of(solo_keys, key_array), index)
        count_w = np.ones(n_games, bool)
        count_b = np.ones(n_games, bool)
        count_w[solo] = (solo_pos >= 0) & (solo_pos == wi[solo])
        count_b[solo] = (solo_pos >= 0) & (solo_pos == bi[solo])
        bad[solo] |= ~(count_w[solo] | count_b[solo])
    if bad.any():
        first = int(np.argmax(bad))
        raise ValueError(_bad_game(source[first] if source else columns.at([first])[0], by_key))

    # Sides in the reference's order: game by game, white before black (so that every
    # player's sums add his games in the same order).
    side_game = np.repeat(np.arange(n_games), 2)
    side_own = _interleave(wi, bi)
    side_opp = _interleave(bi, wi)
    side_score = _interleave(scores, 1.0 - scores)
    own_rated, opp_rated = rated[side_own], rated[side_opp]
    both = own_rated & opp_rated
    if count_w is not None:
        counts = _interleave(count_w, count_b)
        rr = both & counts
        rest = ~both & counts
    else:
        rr, rest = both, ~both
    rr_own, rr_opp = side_own[rr], side_opp[rr]
    rr_e = expected_scores(rules, ratings[rr_own], ratings[rr_opp])
    rr_score = side_score[rr]

    rest_at = np.flatnonzero(rest)
    rest_newcomer = ~own_rated[rest_at]
    new_at, def_at = rest_at[rest_newcomer], rest_at[~rest_newcomer]
    n_own, n_opp, n_score, n_game = side_own[new_at], side_opp[new_at], side_score[new_at], side_game[new_at]
    value, valued, used, opp_value, rounds = _first_ratings(
        rules, n_players, rated, ratings, n_own, n_opp, n_score
    )

    # The newcomers' totals over the games their values used.
    u_own = n_own[used]
    u_e = expected_scores(rules, value[u_own], opp_value[used])
    new_games = np.bincount(u_own, minlength=n_players)
    new_points = np.bincount(u_own, weights=n_score[used], minlength=n_players)
    new_expected = fsums(u_own, u_e, n_players)
    published = valued & (new_games >= rules.min_games)
    published_value = np.where(published, _publish_array(rules, np.where(published, value, 0.0)), 0.0)

    # Rated sides against newcomers: rated against a published start value, or waiting.
    d_own, d_opp, d_score, d_game = side_own[def_at], side_opp[def_at], side_score[def_at], side_game[def_at]
    d_ok = published[d_opp]
    d_own_ok, d_opp_ok = d_own[d_ok], d_opp[d_ok]
    d_value = published_value[d_opp_ok]
    d_e = expected_scores(rules, ratings[d_own_ok], d_value)

    all_own = np.concatenate([rr_own, d_own_ok])
    games_n = np.bincount(all_own, minlength=n_players)
    points = np.bincount(all_own, weights=np.concatenate([rr_score, d_score[d_ok]]), minlength=n_players)
    expected = np.bincount(all_own, weights=np.concatenate([rr_e, d_e]), minlength=n_players)

    factor = _factors(rules, plist, np.where(rated, ratings, 0.0), year)
    if rules.k_games_cap is not None:
        capped = (games_n > 0) & (factor * games_n > rules.k_games_cap)
        factor = np.where(capped, np.floor(rules.k_games_cap / np.where(games_n > 0, games_n, 1)), factor)
    total = np.where(games_n > 0, factor * (points - expected) + games_n * 0.0, 0.0)
    rounded = round_half_away_array(np.where(rated, total, 0.0)).astype(np.int64)

    # Pending sides (§1.7): rated sides against unpublished newcomers, newcomer sides not used.
    n_wait = ~(published[n_own] & used)
    wait_own = np.concatenate([d_own[~d_ok], n_own[n_wait]])
    wait_game = np.concatenate([d_game[~d_ok], n_game[n_wait]])
    pending_count = np.bincount(wait_own, minlength=n_players)
    has_sides = np.bincount(n_own, minlength=n_players) > 0

    floor = rules.floor

    def maker():
        # The arrays every PlayerResult reads, once, as Python values.
        games, pts, esum, fac, tot, rnd, pend, is_rated, sides, n_new, p_new, e_new, val, ok, pub, pub_val = (
            a.tolist() for a in (
                games_n, points, expected, factor, total, rounded, pending_count, rated, has_sides,
                new_games, new_points, new_expected, value, valued, published, published_value,
            )
        )

        def make(i: int) -> PlayerResult:
            key = keys[i]
            if is_rated[i]:
                r, rd = rating_list[i], rnd[i]
                new = r + rd
                if floor is not None and new < floor:
                    new = floor
                res = PlayerResult(key, r, games[i], pts[i], esum[i], fac[i], tot[i], rd, new)
                res.pending_games = pend[i]
                return res
            if sides[i]:
                return PlayerResult(
                    key, None, n_new[i], p_new[i], e_new[i], start_value=val[i] if ok[i] else None,
                    published=pub[i], new_rating=int(pub_val[i]) if pub[i] else None, newcomer=True,
                    pending_games=pend[i],
                )
            return PlayerResult(key, None, newcomer=True, pending_games=pend[i])

        return make

    # The reference's order: rated players, newcomers with games, newcomers without.
    order = np.concatenate([np.flatnonzero(rated), np.flatnonzero(~rated & has_sides),
                            np.flatnonzero(~rated & ~has_sides)])

    def details():
        deferred = [
            DeferredSide(g, keys[o], keys[p], v, e, s)
            for g, o, p, v, e, s in zip(
                d_game[d_ok].tolist(), d_own_ok.tolist(), d_opp_ok.tolist(),
                [int(v) for v in d_value.tolist()], d_e.tolist(), d_score[d_ok].tolist(),
            )
        ]
        factors = {k: (r, f, 0.0) for k, r, f in zip(keys, rating_list, factor.tolist()) if r is not None}
        return deferred, factors, {k: r for k, r in zip(keys, rating_list) if r is not None}

    result = VectorisedResult(rules, PlayerTable(keys, order, maker), rounds, columns, details)
    result._source = source or []
    result._expectation = _expectation(rules)
    result.pending = _pending(source, columns, keys, wait_game, wait_own)

    def side_rows():
        # The rated sides' columns as ``games`` computes them one by one: (score - E) x F + 0.0.
        own = np.concatenate([rr_own, d_own_ok])
        opp_rating = np.concatenate([ratings[rr_opp], d_value.astype(float)])
        own_rating = ratings[own]
        e = np.concatenate([rr_e, d_e])
        f = factor[own]
        change = (np.concatenate([rr_score, d_score[d_ok]]) - e) * f + 0.0
        game_index = np.concatenate([side_game[rr], d_game[d_ok]])
        game_key = _take(columns.key, game_index)
        player = _take(keys, own)
        values = zip(own_rating.tolist(), opp_rating.tolist(), (own_rating - opp_rating).tolist(),
                     e.tolist(), f.tolist(), change.tolist())
        return dict(zip(zip(game_key, player), values))

    result._side_rows = side_rows
    return result


def _array_of(values: list, key_array):
    """``values`` as an integer array where the players' keys are one (for ``_positions``)."""
    if key_array is None or not values or not all(type(v) is int for v in values):
        return values
    return np.array(values, np.int64)


def _pending(source: list | None, columns: GameColumns, keys: list, wait_game, wait_own) -> list[GameIn]:
    """Games (or the one side of a game) still waiting for a newcomer's first rating (§1.7),
    in game order, as ``collect_pending`` lists them."""
    if not wait_game.size:
        return []
    order = np.argsort(wait_game, kind="stable")
    game_of, own_of = wait_game[order], wait_own[order]
    indices, first, count = np.unique(game_of, return_index=True, return_counts=True)
    # A game waits for both sides (only_for None) or for the one side still waiting.
    alone = [None if n == 2 else keys[k] for n, k in zip(count.tolist(), own_of[first].tolist())]
    indices = indices.tolist()
    games = [source[g] for g in indices] if source else columns.at(indices)
    return [waiting if waiting.only_for == only else waiting._replace(only_for=only)
            for waiting, only in zip(games, alone)]
