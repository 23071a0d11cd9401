"""Evaluation of one rating period on plain data (spec §1.3–§1.7, §4).

Every calculation uses the published ratings given in ``players``; per-game changes are
exact floats, summed with ``math.fsum`` (exactly rounded, so independent of game order) and
rounded once per period, half away from zero.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from ratings.rules.expectation import expected_score
from ratings.rules.factor import development_factor, egf_2021_bonus, k_games_capped
from ratings.rules.newcomers import first_ratings
from ratings.rules.performance import performance_exact
from ratings.rules.presets import Rules
from ratings.rules.rounding import round_half_away

__all__ = ["GameCalc", "GameIn", "PeriodResult", "PlayerIn", "PlayerResult", "dsb_blend", "evaluate_period"]

VALID_SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True, slots=True)
class PlayerIn:
    key: Hashable
    rating: int | float | None  # published rating; None = newcomer
    games_count: int = 0  # career games on the last published list
    birth_year: int | None = None
    reached_2400: bool = False


@dataclass(frozen=True, slots=True)
class GameIn:
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


@dataclass
class PeriodResult:
    rules: Rules
    players: dict[Hashable, PlayerResult]
    games: list[GameCalc] = field(default_factory=list)
    pending: list[GameIn] = field(default_factory=list)
    iterations: int = 0  # rounds of the newcomer fixed-point iteration


def dsb_blend(progressive: float, performance: float, games_after: int, *, blend_games: int = 30):
    """seed 001 / spec 4: progressive x n/30 + performance x (1 - n/30), n = games after the
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


def _check(players: dict, games: list[GameIn]) -> None:
    for g in games:
        if g.white not in players or g.black not in players:
            raise ValueError(f"game {g.key!r}: unknown player")
        if g.white == g.black:
            raise ValueError(f"game {g.key!r}: a player cannot play himself")
        if g.score not in VALID_SCORES:
            raise ValueError(f"game {g.key!r}: score {g.score!r} is not 1, 0.5 or 0")
        if g.only_for is not None and g.only_for not in (g.white, g.black):
            raise ValueError(f"game {g.key!r}: only_for is neither player")


def evaluate_period(
    rules: Rules, players: Iterable[PlayerIn], games: Iterable[GameIn], *, year: int | None = None
) -> PeriodResult:
    by_key = {p.key: p for p in players}
    games = list(games)
    _check(by_key, games)
    starts, iterations = first_ratings(rules, by_key, games)
    # Value every opponent is rated against: published rating or published start value.
    value = {k: p.rating for k, p in by_key.items() if p.rating is not None}
    for k, s in starts.items():
        if s.published:
            value[k] = s.published_value

    sides: dict[Hashable, list[tuple[GameIn, Hashable, float]]] = {k: [] for k, p in by_key.items()
                                                                  if p.rating is not None}
    pending_sides: dict[int, list[Hashable]] = {}  # game index -> sides still waiting
    for i, g in enumerate(games):
        for own, opp, score in ((g.white, g.black, g.score), (g.black, g.white, 1.0 - g.score)):
            if g.only_for is not None and g.only_for != own:
                continue
            if own in sides:  # a rated player
                if opp in value:
                    sides[own].append((g, opp, score))
                else:
                    pending_sides.setdefault(i, []).append(own)
            else:
                start = starts.get(own)
                if start is None or not start.published or i not in start.used:
                    pending_sides.setdefault(i, []).append(own)

    result = PeriodResult(rules=rules, players={}, iterations=iterations)
    pending_count: dict[Hashable, int] = {}
    for i, keys in pending_sides.items():
        g = games[i]
        for k in keys:
            pending_count[k] = pending_count.get(k, 0) + 1
        only = None if len(keys) == 2 else keys[0]
        result.pending.append(g if g.only_for == only else GameIn(g.key, g.white, g.black, g.score, only))

    _rate_players(rules, by_key, sides, value, year, result)
    for k, s in starts.items():
        result.players[k] = PlayerResult(
            key=k, rating=None, games=s.games, points=s.points, expected=s.expected,
            start_value=s.value, published=s.published,
            new_rating=s.published_value if s.published else None, newcomer=True,
        )
    for k, p in by_key.items():
        if k not in result.players:  # newcomer without any game
            result.players[k] = PlayerResult(key=k, rating=None, newcomer=True)
        result.players[k].pending_games = pending_count.get(k, 0)
    return result


def _expectation_cache(rules: Rules):
    """E as a function of (own, opponent); memoised per difference where E depends on D only."""
    if rules.expectation.startswith("egf"):
        return lambda own, opp: expected_score(rules, own, opp)
    cache: dict[float, float] = {}

    def e(own: float, opp: float) -> float:
        d = own - opp
        try:
            return cache[d]
        except KeyError:
            cache[d] = v = expected_score(rules, own, opp)
            return v

    return e


def _rate_players(rules, by_key, sides, value, year, result) -> None:
    e_of = _expectation_cache(rules)
    bonus = rules.factor == "egf-2021"
    calcs = result.games
    append = calcs.append
    for k, own_games in sides.items():
        p = by_key[k]
        r = p.rating
        n = len(own_games)
        f = development_factor(
            rules, rating=r, games_count=p.games_count, birth_year=p.birth_year, year=year,
            reached_2400=p.reached_2400,
        )
        f = k_games_capped(rules, f, n)
        b = egf_2021_bonus(r) if bonus else 0.0
        changes = []
        points = 0.0
        expected = []
        for g, opp, score in own_games:
            o = value[opp]
            e = e_of(r, o)
            c = (score - e) * f + b
            changes.append(c)
            expected.append(e)
            points += score
            append(GameCalc(g, k, opp, r, o, r - o, e, score, f, c))
        total = math.fsum(changes)
        rounded = round_half_away(total, rules.decimals)
        new = r + rounded
        if rules.decimals:
            new = round_half_away(new, rules.decimals)
        if rules.floor is not None and new < rules.floor:
            new = rules.floor
        res = PlayerResult(
            key=k, rating=r, games=n, points=points, expected=math.fsum(expected), factor=f,
            change=total, rounded_change=rounded, new_rating=new,
        )
        if rules.blend_games:
            games_after = p.games_count + n
            if games_after < rules.blend_games:
                res.markers = "*"
                if n:
                    res.performance = performance_exact([value[o] for _, o, _ in own_games], points)
                    res.new_rating, res.markers = dsb_blend(
                        new, res.performance, games_after, blend_games=rules.blend_games
                    )
        result.players[k] = res
