"""Vectorised evaluation of one rating period with NumPy.

It computes exactly what ``evaluate_period_reference`` (``ratings.rules.period``) computes, in
arrays instead of one game at a time: per-game expectations, the players' totals, the newcomer
fixed-point iteration (spec §1.6, Jacobi rounds) and the pending games (§1.7). The reference
stays the readable definition; tests compare the two on random periods. Sums run in the same
order as the reference's (``numpy.bincount`` adds in array order), so the per-player totals are
the same floats; the newcomers' sums may differ in the last bit (the reference uses fsum).

Applies where every game is evaluated on its own with an expectation and a factor that arrays
can compute: the ``oesb`` and ``fide`` families. dsb-1990 (performance blend) and the EGF sets
(three decimals) use the reference.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import repeat

from ratings.rules.expectation import POLYNOMIAL_LIMIT, TABLE_BANDS
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
    collect_pending,
    evaluate_period_reference,
)
from ratings.rules.presets import Rules
from ratings.rules.rounding import round_half_away

try:  # NumPy is a runtime requirement; without it the reference evaluates every period.
    import numpy as np
except ImportError:  # pragma: no cover - exercised only in an environment without numpy
    np = None

__all__ = ["applies", "evaluate_period_vectorised", "expected_scores", "round_half_away_array"]

VECTOR_EXPECTATIONS = ("polynomial", "table", "logistic")
VECTOR_FACTORS = ("oesb", "fide", "constant")
# Values this close to a rounding edge are rounded by ``round_half_away`` itself (it first cuts
# to 9 decimals), so that both evaluations round every total the same way.
_EDGE = 1e-6


def applies(rules: Rules) -> bool:
    return (
        np is not None
        and rules.expectation in VECTOR_EXPECTATIONS
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
    if rules.expectation == "polynomial":
        a = np.abs(d)
        e = 0.5 + 1.4217e-3 * a - 2.4336e-7 * a * a - 2.5140e-9 * a**3 + 1.9910e-12 * a**4
        e = np.where(a > POLYNOMIAL_LIMIT, 1.0, e)
        return np.where(d >= 0, e, 1.0 - e)
    if rules.expectation == "table":
        hundredths = np.searchsorted(TABLE_BANDS, np.ceil(np.abs(d) - 1e-9), side="left")
        return np.where(d >= 0, (50 + hundredths) / 100, (50 - hundredths) / 100)
    return 1.0 / (1.0 + 10.0 ** (-d / 400.0))  # logistic


def round_half_away_array(values):
    """Whole numbers, half away from zero, as ``round_half_away`` rounds each value."""
    size = np.abs(values)
    out = np.copysign(np.floor(size + 0.5), values)
    edge = np.flatnonzero(np.abs(size - np.floor(size) - 0.5) < _EDGE)
    for i in edge.tolist():
        out[i] = round_half_away(float(values[i]))
    return out


_DP = np.array([DP_TABLE[h] if h >= 50 else -DP_TABLE[100 - h] for h in range(101)], float) if np else None


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
        average = (np.bincount(k, weights=r, minlength=n_players) + rules.hypothetical_rating * draws) / n
        p = (np.bincount(k, weights=score[opp_rated], minlength=n_players) + 0.5 * draws) / n
        valued = count > 0
        hundredths = round_half_away_array(np.where(valued, p, 0.0) * 100).astype(int)
        value = np.where(valued, average + _DP[hundredths], 0.0)
        return value, valued, valued[own] & opp_rated, ratings[opp], 1

    # Spec §1.6: rounds of the start formula until no value moves by more than 0.001, on
    # arrays of the newcomers only (position m of newcomer_keys[m]).
    newcomer = np.flatnonzero(~rated)
    m = len(newcomer)
    position = np.full(n_players, -1, np.int64)
    position[newcomer] = np.arange(m)
    fixed_k, fixed_r, fixed_s = position[own[opp_rated]], ratings[opp[opp_rated]], score[opp_rated]
    order = np.lexsort((fixed_r, fixed_k))
    fixed_k, fixed_r, fixed_s = fixed_k[order], fixed_r[order], fixed_s[order]
    rsum = np.bincount(fixed_k, weights=fixed_r, minlength=m)
    rn = np.bincount(fixed_k, minlength=m)
    rpts = np.bincount(fixed_k, weights=fixed_s, minlength=m)
    var_k, var_o, var_s = position[own[~opp_rated]], position[opp[~opp_rated]], score[~opp_rated]
    cur = np.zeros(m)
    known = np.zeros(m, bool)
    rounds = 0
    for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 - the last round number is reported
        live = known[var_o]
        k, v = var_k[live], cur[var_o[live]]
        # Summed in the order of the values, so that the order of players and games does not
        # change a start value in its last bit (the reference uses math.fsum for the same end).
        order = np.lexsort((v, k))
        vsum = rsum + np.bincount(k[order], weights=v[order], minlength=m)
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


def _indices(keys: list, index: dict, wanted: list):
    """Positions of ``wanted`` in ``keys``, -1 for unknown keys. Whole-number keys (the usual
    case) are looked up in one sorted search; other keys one by one."""
    if keys and wanted and all(type(k) is int for k in (keys[0], keys[-1], wanted[0], wanted[-1])):
        try:
            key_array, wanted_array = np.array(keys), np.array(wanted)
        except (OverflowError, ValueError):
            key_array = wanted_array = np.array([None])
        if key_array.dtype.kind == wanted_array.dtype.kind == "i":
            low, high = int(key_array.min()), int(key_array.max())
            if high - low <= 4 * len(keys) + 1024:  # dense ids: a lookup table
                table = np.full(high - low + 1, -1, np.int64)
                table[key_array - low] = np.arange(len(keys))
                inside = (wanted_array >= low) & (wanted_array <= high)
                return np.where(inside, table[np.where(inside, wanted_array - low, 0)], -1)
            order = np.argsort(key_array, kind="stable")
            ordered = key_array[order]
            pos = np.minimum(np.searchsorted(ordered, wanted_array), len(ordered) - 1)
            return np.where(ordered[pos] == wanted_array, order[pos], -1)
    return np.array(list(map(index.get, wanted, repeat(-1))), np.int64)


def _interleave(first, second):
    out = np.empty(2 * len(first), dtype=np.result_type(first, second))
    out[0::2] = first
    out[1::2] = second
    return out


def evaluate_period_vectorised(
    rules: Rules, players: Iterable[PlayerIn], games: Iterable[GameIn], *, year: int | None = None
) -> PeriodResult:
    by_key = {p.key: p for p in players}
    games = list(games)
    plist = list(by_key.values())
    keys = list(by_key)
    n_players = len(keys)
    index = {k: i for i, k in enumerate(keys)}
    rating_list = [p.rating for p in plist]
    rated = np.array([r is not None for r in rating_list], bool)
    ratings = np.array([r if r is not None else np.nan for r in rating_list], float)

    # GameIn is a tuple (key, white, black, score, only_for): indexing it is several times
    # faster than its named attributes, which counts at 200,000 games.
    game_keys = [g[0] for g in games]
    whites = [g[1] for g in games]
    blacks = [g[2] for g in games]
    score_list = [g[3] for g in games]
    only_for = [g[4] for g in games]
    wi, bi = _indices(keys, index, whites), _indices(keys, index, blacks)
    try:
        scores = np.array(score_list, float)
    except (TypeError, ValueError):  # a score that is no number: the reference names the game
        return evaluate_period_reference(rules, by_key.values(), games, year=year)
    count_w = np.ones(len(games), bool)
    count_b = np.ones(len(games), bool)
    bad = (wi < 0) | (bi < 0) | (wi == bi) | ~np.isin(scores, VALID_SCORES)
    if only_for.count(None) != len(only_for):
        for i, only in enumerate(only_for):
            if only is not None:
                count_w[i] = only == whites[i]
                count_b[i] = only == blacks[i]
                bad[i] |= not (count_w[i] or count_b[i])
    if bad.any():
        raise ValueError(_bad_game(games[int(np.argmax(bad))], by_key))

    # Sides in the reference's order: game by game, white before black.
    side_game = np.repeat(np.arange(len(games)), 2)
    side_own = _interleave(wi, bi)
    side_opp = _interleave(bi, wi)
    side_score = _interleave(scores, 1.0 - scores)
    side_counts = _interleave(count_w, count_b)
    both = rated[side_own] & rated[side_opp]
    rr = both & side_counts
    rr_own, rr_opp = side_own[rr], side_opp[rr]
    rr_e = expected_scores(rules, ratings[rr_own], ratings[rr_opp])
    rr_score = side_score[rr]

    rest = ~both & side_counts
    new_side = rest & ~rated[side_own]
    def_side = rest & rated[side_own]
    n_own, n_opp, n_score, n_game = (a[new_side] for a in (side_own, side_opp, side_score, side_game))
    value, valued, used, opp_value, rounds = _first_ratings(
        rules, n_players, rated, ratings, n_own, n_opp, n_score
    )

    # The newcomers' totals over the games their values used.
    u_own = n_own[used]
    u_e = expected_scores(rules, value[u_own], opp_value[used])
    new_games = np.bincount(u_own, minlength=n_players)
    new_points = np.bincount(u_own, weights=n_score[used], minlength=n_players)
    new_expected = np.bincount(u_own, weights=u_e, minlength=n_players)
    published = valued & (new_games >= rules.min_games)
    published_value = np.where(published, _publish_array(rules, np.where(published, value, 0.0)), 0.0)

    # Rated sides against newcomers: rated against a published start value, or waiting.
    d_own, d_opp, d_score, d_game = (a[def_side] for a in (side_own, side_opp, side_score, side_game))
    d_ok = published[d_opp]
    d_own_ok, d_opp_ok = d_own[d_ok], d_opp[d_ok]
    d_value = published_value[d_opp_ok]
    d_e = expected_scores(rules, ratings[d_own_ok], d_value)

    all_own = np.concatenate([rr_own, d_own_ok])
    games_n = np.bincount(all_own, minlength=n_players)
    points = np.bincount(all_own, weights=np.concatenate([rr_score, d_score[d_ok]]), minlength=n_players)
    expected = np.bincount(all_own, weights=np.concatenate([rr_e, d_e]), minlength=n_players)

    # Pending sides (§1.7): rated sides against unpublished newcomers, newcomer sides not used.
    n_wait = ~(published[n_own] & used)
    wait_own = np.concatenate([d_own[~d_ok], n_own[n_wait]])
    wait_game = np.concatenate([d_game[~d_ok], n_game[n_wait]])
    pending_sides: dict[int, list[Hashable]] = {}
    for g, k in zip(wait_game.tolist(), wait_own.tolist()):
        pending_sides.setdefault(g, []).append(keys[k])
    pending_counts = np.bincount(wait_own, minlength=n_players).tolist()

    result = PeriodResult(rules, iterations=rounds)
    result._source = games
    result._expectation = _expectation(rules)
    collect_pending(result, games, pending_sides)

    factor = _factors(rules, plist, np.where(rated, ratings, 0.0), year)
    if rules.k_games_cap is not None:
        capped = (games_n > 0) & (factor * games_n > rules.k_games_cap)
        factor = np.where(capped, np.floor(rules.k_games_cap / np.where(games_n > 0, games_n, 1)), factor)
    total = np.where(games_n > 0, factor * (points - expected) + games_n * 0.0, 0.0)
    rounded = round_half_away_array(np.where(rated, total, 0.0)).astype(np.int64)

    # The reference's order: rated players, newcomers with games, newcomers without.
    floor = rules.floor
    players_out = result.players
    rated_idx = np.flatnonzero(rated)
    columns = zip(
        rated_idx.tolist(), games_n[rated_idx].tolist(), points[rated_idx].tolist(),
        expected[rated_idx].tolist(), factor[rated_idx].tolist(), total[rated_idx].tolist(),
        rounded[rated_idx].tolist(),
    )
    for i, n, pts, esum, f, change, rd in columns:
        r = rating_list[i]
        new = r + rd
        if floor is not None and new < floor:
            new = floor
        res = PlayerResult(keys[i], r, n, pts, esum, f, change, rd, new)
        res.pending_games = pending_counts[i]
        players_out[keys[i]] = res
    has_sides = np.bincount(n_own, minlength=n_players) > 0
    for i in np.flatnonzero(has_sides).tolist():
        ok = bool(valued[i])
        pub = bool(published[i])
        players_out[keys[i]] = PlayerResult(
            keys[i], None, int(new_games[i]), float(new_points[i]), float(new_expected[i]),
            start_value=float(value[i]) if ok else None, published=pub,
            new_rating=int(published_value[i]) if pub else None, newcomer=True,
            pending_games=pending_counts[i],
        )
    for i in np.flatnonzero(~rated & ~has_sides).tolist():
        players_out[keys[i]] = PlayerResult(keys[i], None, newcomer=True, pending_games=pending_counts[i])
    result._ratings = {keys[i]: rating_list[i] for i in np.flatnonzero(rated).tolist()}

    def details():
        deferred = [
            DeferredSide(g, keys[o], keys[p], v, e, s)
            for g, o, p, v, e, s in zip(
                d_game[d_ok].tolist(), d_own_ok.tolist(), d_opp_ok.tolist(),
                [int(v) for v in d_value.tolist()], d_e.tolist(), d_score[d_ok].tolist(),
            )
        ]
        factors = {k: (r, f, 0.0) for k, r, f in zip(keys, rating_list, factor.tolist()) if r is not None}
        return deferred, factors

    result._details = details

    def side_rows():
        # The rated sides' columns as ``games`` computes them one by one: (score - E) x F + 0.0.
        own = np.concatenate([rr_own, d_own_ok])
        opp_rating = np.concatenate([ratings[rr_opp], d_value.astype(float)])
        own_rating = ratings[own]
        e = np.concatenate([rr_e, d_e])
        f = factor[own]
        change = (np.concatenate([rr_score, d_score[d_ok]]) - e) * f + 0.0
        game_index = np.concatenate([side_game[rr], d_game[d_ok]])
        game_key = [game_keys[i] for i in game_index.tolist()]
        players = [keys[i] for i in own.tolist()]
        values = zip(own_rating.tolist(), opp_rating.tolist(), (own_rating - opp_rating).tolist(),
                     e.tolist(), f.tolist(), change.tolist())
        return dict(zip(zip(game_key, players), values))

    result._side_rows = side_rows
    return result
