"""Evaluation of one rating period on plain data (docs/rules.md §1.3–§1.7, §4).

Every calculation uses the published ratings given in ``players``. A rated player's change is
F x (points - sum of E), the sum of his per-game changes, rounded once per period, half away
from zero (after a cut to 9 decimals, so the order of the games cannot change the result).

``evaluate_period_reference`` is the readable definition, one game at a time; ``evaluate_period``
(``ratings.rules.engine``) hands the rule sets that arrays can compute to
``ratings.rules.vectorised`` (same results).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from math import fsum
from typing import NamedTuple

from ratings.rules.expectation import expected_score
from ratings.rules.factor import development_factor, egf_2021_bonus, k_games_capped
from ratings.rules.newcomers import first_ratings
from ratings.rules.performance import performance_from_average
from ratings.rules.presets import Rules
from ratings.rules.rounding import round_half_away

__all__ = [
    "DeferredSide", "GameCalc", "GameIn", "PeriodResult", "PlayerIn", "PlayerResult", "Tally",
    "collect_pending", "dsb_blend", "evaluate_period_reference",
]

VALID_SCORES = (0.0, 0.5, 1.0)


class PlayerIn(NamedTuple):
    """A player's published values (a tuple: a federation's pool has tens of thousands)."""

    key: Hashable
    rating: int | float | None  # published rating; None = newcomer
    games_count: int = 0  # career games on the last published list
    birth_year: int | None = None
    reached_2400: bool = False
    # Highest published rating the player ever reached in the pool (FIDE K 10 "once 2400 was
    # reached"); None = unknown, the published rating stands for it.
    peak_rating: int | float | None = None


class GameIn(NamedTuple):
    """A game of the period (a tuple: a federation's period has hundreds of thousands)."""

    key: Hashable
    white: Hashable
    black: Hashable
    score: float  # white's score: 1, 0.5 or 0
    # A carried game may still count for one side only (the other side already used it,
    # e.g. a newcomer whose start value included it); None = both sides.
    only_for: Hashable | None = None


@dataclass(slots=True)
class GameCalc:
    game: GameIn
    player: Hashable
    opponent: Hashable
    own_rating: float
    opponent_rating: float
    difference: float
    expected: float
    score: float
    factor: float
    change: float


@dataclass(slots=True)
class PlayerResult:
    key: Hashable
    rating: int | float | None
    games: int = 0
    points: float = 0.0
    expected: float = 0.0
    factor: float = 0.0
    change: float = 0.0
    rounded_change: int | float = 0
    new_rating: int | float | None = None
    start_value: float | None = None
    published: bool = False
    newcomer: bool = False
    pending_games: int = 0
    markers: str = ""
    performance: int | None = None  # dsb-1990 only: the performance used in the blend


@dataclass(slots=True)
class Tally:
    """A rated player's running totals over the period."""

    rating: int | float  # published rating
    games: int = 0
    points: float = 0.0
    expected: float = 0.0  # sum of E


@dataclass(frozen=True, slots=True)
class DeferredSide:
    """The rated side of a game against a newcomer, rated against his published start value."""

    index: int  # position of the game in the period's games
    player: Hashable
    opponent: Hashable
    opponent_rating: int | float
    expected: float
    score: float


class PeriodResult:
    """Outcome of a period. ``games`` (one GameCalc per game and rated side) is built on first
    access from compact rows, so that evaluating large periods stays fast."""

    def __init__(self, rules: Rules, players: dict | None = None, iterations: int = 0):
        self.rules = rules
        self.players: dict[Hashable, PlayerResult] = players if players is not None else {}
        self.pending: list[GameIn] = []
        self.iterations = iterations  # rounds of the newcomer fixed-point iteration
        self._deferred: list[DeferredSide] = []
        self._ratings: dict[Hashable, int | float] = {}  # rated players' published ratings
        self._expectation = None
        self._source: list[GameIn] = []
        self._games: list[GameCalc] | None = None
        self._factors: dict[Hashable, tuple] = {}  # player -> (rating, factor, egf bonus)
        # The vectorised evaluation fills ``_deferred`` and ``_factors`` only when asked.
        self._details = None
        self._side_rows = None  # the vectorised evaluation's columns behind ``side_rows``

    def _load_details(self) -> None:
        if self._details is not None:
            self._deferred, self._factors = self._details()
            self._details = None

    @property
    def games(self) -> list[GameCalc]:
        """Per game and rated side, in game order (games against newcomers last)."""
        if self._games is None:
            self._load_details()
            rated, factors, e_of = self._ratings, self._factors, self._expectation
            out = []

            def calc(g, player, opp, o, e, score):
                r, f, b = factors[player]
                out.append(GameCalc(g, player, opp, r, o, r - o, e, score, f, (score - e) * f + b))

            for g in self._source:
                if g.white in rated and g.black in rated:
                    rw, rb = rated[g.white], rated[g.black]
                    if g.only_for in (None, g.white):
                        calc(g, g.white, g.black, rb, e_of(rw, rb), g.score)
                    if g.only_for in (None, g.black):
                        calc(g, g.black, g.white, rw, e_of(rb, rw), 1.0 - g.score)
            for d in self._deferred:
                calc(self._source[d.index], d.player, d.opponent, d.opponent_rating, d.expected, d.score)
            self._games = out
        return self._games

    def side_rows(self) -> dict[tuple, tuple]:
        """What ``games`` holds, as plain tuples for storing: (game key, player) -> (own rating,
        opponent rating, difference, expected, factor, change). The vectorised evaluation builds
        it from its arrays without a GameCalc per side."""
        if self._side_rows is not None and self._games is None:
            return self._side_rows()
        return {
            (c.game.key, c.player): (
                c.own_rating, c.opponent_rating, c.difference, c.expected, c.factor, c.change
            )
            for c in self.games
        }

    def __repr__(self) -> str:
        return f"PeriodResult({self.rules.name}, {len(self.players)} players, {len(self._source)} games)"


def dsb_blend(progressive: float, performance: float, games_after: int, *, blend_games: int = 30):
    """DSB 1990 (docs/rules.md §4.1): progressive x n/30 + performance x (1 - n/30), n = games after the
    period; returns (value, marker)."""
    weight = games_after / blend_games
    value = round_half_away(progressive * weight + performance * (1 - weight))
    return value, dsb_marker(value - progressive)


def dsb_marker(moved: float) -> str:
    size = abs(moved)
    if size < 50:
        return "*"
    sign = "+" if moved > 0 else "-"
    return sign * (1 if size < 100 else 2 if size < 200 else 3)


def _bad_game(g: GameIn, players: dict) -> str | None:
    if g.white not in players or g.black not in players:
        return f"game {g.key!r}: unknown player"
    if g.white == g.black:
        return f"game {g.key!r}: a player cannot play himself"
    if g.score not in VALID_SCORES:
        return f"game {g.key!r}: score {g.score!r} is not 1, 0.5 or 0"
    if g.only_for is not None and g.only_for not in (g.white, g.black):
        return f"game {g.key!r}: only_for is neither player"
    return None


def _expectation(rules: Rules):
    """E(own, opponent), memoised per rating difference where E depends on D only."""
    if not rules.expectation_of_difference:
        return lambda own, opp: expected_score(rules, own, opp)
    cache: dict[float, float] = {}

    def e(own: float, opp: float) -> float:
        d = own - opp
        try:
            return cache[d]
        except KeyError:
            cache[d] = v = expected_score(rules, own, opp)
            return v

    e.cache = cache  # the hot loop reads it directly
    return e


def evaluate_period_reference(
    rules: Rules, players: Iterable[PlayerIn], games: Iterable[GameIn], *, year: int | None = None
) -> PeriodResult:
    """The readable evaluation in plain Python, one game at a time."""
    by_key = {p.key: p for p in players}
    games = list(games)
    e_of = _expectation(rules)
    cache = getattr(e_of, "cache", None)
    acc = {k: Tally(p.rating) for k, p in by_key.items() if p.rating is not None}
    new: dict[Hashable, list] = {k: [] for k, p in by_key.items() if p.rating is None}
    deferred: list[tuple[int, Hashable, Hashable, float]] = []  # rated side vs newcomer
    result = PeriodResult(rules)
    result._source = games
    result._ratings = {k: t.rating for k, t in acc.items()}
    result._expectation = e_of
    scores = VALID_SCORES
    # The hot loop: one pass, locals only, E from the per-difference cache. Per-game details
    # (GameCalc) are derived again on demand, so nothing is stored per game here.
    for i, g in enumerate(games):
        w, b, s, only = g.white, g.black, g.score, g.only_for
        if w == b or s not in scores or (only is not None and only != w and only != b):
            raise ValueError(_bad_game(g, by_key))
        tw = acc.get(w)
        tb = acc.get(b)
        if tw is not None and tb is not None:
            d = tw.rating - tb.rating
            if cache is not None:
                try:
                    ew = cache[d]
                except KeyError:
                    ew = e_of(tw.rating, tb.rating)
                try:
                    eb = cache[-d]
                except KeyError:
                    eb = e_of(tb.rating, tw.rating)
            else:
                ew, eb = e_of(tw.rating, tb.rating), e_of(tb.rating, tw.rating)
            if only is None or only == w:
                tw.games += 1
                tw.points += s
                tw.expected += ew
            if only is None or only == b:
                tb.games += 1
                tb.points += 1.0 - s
                tb.expected += eb
            continue
        if (tw is None and w not in new) or (tb is None and b not in new):
            raise ValueError(_bad_game(g, by_key))
        if only is None or only == w:
            if tw is None:
                new[w].append((i, b, s))
            else:
                deferred.append((i, w, b, s))
        if only is None or only == b:
            if tb is None:
                new[b].append((i, w, 1.0 - s))
            else:
                deferred.append((i, b, w, 1.0 - s))

    starts, result.iterations = first_ratings(rules, by_key, new)
    value = dict(result._ratings)  # published ratings and published start values
    for k, st in starts.items():
        if st.published:
            value[k] = st.published_value
    pending_sides: dict[int, list[Hashable]] = {}  # game index -> sides still waiting
    for i, own, opp, score in deferred:
        o = value.get(opp)
        if o is None:
            pending_sides.setdefault(i, []).append(own)
            continue
        t = acc[own]
        e = e_of(t.rating, o)
        t.games += 1
        t.points += score
        t.expected += e
        result._deferred.append(DeferredSide(i, own, opp, o, e, score))
    for k, own_games in new.items():
        st = starts.get(k)
        for i, _, _ in own_games:
            if st is None or not st.published or i not in st.used:
                pending_sides.setdefault(i, []).append(k)

    collect_pending(result, games, pending_sides)
    _rate_players(rules, by_key, acc, year, result)
    for k, st in starts.items():
        result.players[k] = PlayerResult(
            key=k, rating=None, games=st.games, points=st.points, expected=st.expected,
            start_value=st.value, published=st.published,
            new_rating=st.published_value if st.published else None, newcomer=True,
        )
    counts: dict[Hashable, int] = {}
    for keys in pending_sides.values():
        for k in keys:
            counts[k] = counts.get(k, 0) + 1
    for k in by_key:
        if k not in result.players:  # newcomer without any game
            result.players[k] = PlayerResult(key=k, rating=None, newcomer=True)
        result.players[k].pending_games = counts.get(k, 0)
    return result


def collect_pending(result: PeriodResult, games: list[GameIn], pending_sides: dict) -> None:
    """Games (or the one side of a game) still waiting for a newcomer's first rating."""
    for i in sorted(pending_sides):
        keys = pending_sides[i]
        g = games[i]
        only = None if len(keys) == 2 else keys[0]
        result.pending.append(g if g.only_for == only else GameIn(g.key, g.white, g.black, g.score, only))


def _opponent_ratings(result: PeriodResult) -> dict[Hashable, list[float]]:
    """Opponent values per rated player (for the dsb performance)."""
    rated = result._ratings
    out: dict[Hashable, list[float]] = {k: [] for k in rated}
    for g in result._source:
        if g.white in rated and g.black in rated:
            if g.only_for in (None, g.white):
                out[g.white].append(rated[g.black])
            if g.only_for in (None, g.black):
                out[g.black].append(rated[g.white])
    for d in result._deferred:
        out[d.player].append(d.opponent_rating)
    return out


def _rate_players(rules: Rules, by_key: dict, acc: dict[Hashable, Tally], year: int | None,
                  result: PeriodResult) -> None:
    """Factor, exact change (F x (points - sum E), the sum of the per-game changes), rounding,
    floor and the dsb blend for every rated player."""
    bonus = rules.factor == "egf-2021"
    factors = result._factors
    opponents = _opponent_ratings(result) if rules.blend_games else {}
    for k, t in acc.items():
        p = by_key[k]
        n, points, esum, r = t.games, t.points, t.expected, t.rating
        f = development_factor(
            rules, rating=r, games_count=p.games_count, birth_year=p.birth_year, year=year,
            reached_2400=p.reached_2400, peak_rating=p.peak_rating,
        )
        f = k_games_capped(rules, f, n)
        b = egf_2021_bonus(r) if bonus else 0.0
        factors[k] = (r, f, b)
        total = f * (points - esum) + n * b if n else 0.0
        rounded = round_half_away(total, rules.decimals)
        new = r + rounded
        if rules.decimals:
            new = round_half_away(new, rules.decimals)
        if rules.floor is not None and new < rules.floor:
            new = rules.floor
        res = PlayerResult(
            key=k, rating=r, games=n, points=points, expected=esum, factor=f,
            change=total, rounded_change=rounded, new_rating=new,
        )
        if rules.blend_games:
            games_after = p.games_count + n
            if games_after < rules.blend_games:
                res.markers = "*"
                if n:
                    res.performance = performance_from_average(fsum(opponents[k]) / n, points / n)
                    res.new_rating, res.markers = dsb_blend(
                        new, res.performance, games_after, blend_games=rules.blend_games
                    )
        result.players[k] = res
