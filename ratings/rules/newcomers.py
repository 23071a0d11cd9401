"""First ratings of newcomers (docs/rules.md §1.6 start value with fixed-point iteration; §4 FIDE)."""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

from ratings.rules.expectation import expected_score
from ratings.rules.performance import dp
from ratings.rules.presets import Rules
from ratings.rules.rounding import round_half_away

__all__ = ["MAX_ROUNDS", "TOLERANCE", "StartValue", "first_ratings", "newcomer_sides", "start_formula"]

TOLERANCE = 0.001  # docs/rules.md §1.6: until no value moves by more than 0.001
MAX_ROUNDS = 1000


@dataclass
class StartValue:
    key: Hashable
    value: float | None  # exact converged value; None when no game had a valued opponent
    games: int  # n, games used
    points: float
    expected: float
    used: frozenset[int]  # indices of the games used
    published: bool
    published_value: int | float | None


def start_formula(average: float, points: float, n: int, scale: float = 700.0) -> float:
    """Austrian national rating rules: average + 700 x (points/n - 0.5) x n / (n + 2)."""
    return average + scale * (points / n - 0.5) * n / (n + 2)


def newcomer_sides(players: dict, games: list) -> dict[Hashable, list[tuple[int, Hashable, float]]]:
    """Per newcomer: (game index, opponent, own score) of every game that counts for him."""
    sides: dict[Hashable, list[tuple[int, Hashable, float]]] = {
        k: [] for k, p in players.items() if p.rating is None
    }
    for i, g in enumerate(games):
        for own, opp, score in ((g.white, g.black, g.score), (g.black, g.white, 1.0 - g.score)):
            if own in sides and (g.only_for is None or g.only_for == own):
                sides[own].append((i, opp, score))
    return sides


def _publish(rules: Rules, value: float) -> int | float:
    published = round_half_away(value, rules.decimals)
    if rules.first_rating_cap is not None:
        published = min(published, rules.first_rating_cap)
    if rules.floor is not None:
        published = max(published, rules.floor)
    return published


def first_ratings(rules: Rules, players: dict, sides: dict) -> tuple[dict[Hashable, StartValue], int]:
    """Start values of all newcomers with at least one game; returns (values, rounds).

    ``sides`` maps each newcomer to (game index, opponent, own score) of the games that count
    for him (see ``newcomer_sides``)."""
    rated = {k: p.rating for k, p in players.items() if p.rating is not None}
    if rules.first_rating == "fide":
        values = {}
        for k, own in sides.items():
            used = [(i, rated[o], s) for i, o, s in own if o in rated]
            values[k] = _fide_value(rules, used)
        return _results(rules, sides, rated, values, values.keys()), 1

    # Jacobi iteration: every round uses only the previous round's values, so the result
    # does not depend on the order of players or games (sums are math.fsum, exact).
    fixed = {}
    for k, own in sides.items():
        opps = [rated[o] for _, o, _ in own if o in rated]
        pts = math.fsum(s for _, o, s in own if o in rated)
        fixed[k] = (math.fsum(opps), len(opps), pts, [(o, s) for _, o, s in own if o not in rated])
    prev: dict[Hashable, float] = {}
    rounds = 0
    for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 - the last round number is reported
        cur = {}
        for k, (rsum, rn, rpts, var) in fixed.items():
            vals = [rsum]
            pts = rpts
            n = rn
            for o, s in var:
                v = prev.get(o)
                if v is not None:
                    vals.append(v)
                    pts += s
                    n += 1
            if n:
                cur[k] = start_formula(math.fsum(vals) / n, pts, n, rules.start_scale)
        done = cur.keys() == prev.keys() and all(abs(cur[k] - prev[k]) <= TOLERANCE for k in cur)
        prev = cur
        if done:
            break
    return _results(rules, sides, rated, prev, prev.keys()), rounds


def _fide_value(rules: Rules, used: list) -> float | None:
    """FIDE Rating Regulations, first rating: games vs rated players plus hypothetical draws vs 1800."""
    if not used:
        return None
    draws = rules.hypothetical_draws
    n = len(used) + draws
    average = math.fsum([r for _, r, _ in used] + [rules.hypothetical_rating] * draws) / n
    p = (math.fsum(s for _, _, s in used) + 0.5 * draws) / n
    return average + dp(p)


def _results(rules, sides, rated, values, valued) -> dict[Hashable, StartValue]:
    # FIDE counts only games against rated players; the start formula also uses newcomers'
    # values of the last round.
    opponent_value = rated if rules.first_rating == "fide" else {**rated, **{o: values[o] for o in valued}}
    out = {}
    for k, own in sides.items():
        if not own:
            continue
        value = values.get(k)
        used = []
        if value is not None:
            used = [(i, opponent_value[o], s) for i, o, s in own if o in opponent_value]
        n = len(used)
        published = value is not None and n >= rules.min_games
        out[k] = StartValue(
            key=k,
            value=value,
            games=n,
            points=math.fsum(s for _, _, s in used),
            expected=math.fsum(expected_score(rules, value, r) for _, r, _ in used) if used else 0.0,
            used=frozenset(i for i, _, _ in used),
            published=published,
            published_value=_publish(rules, value) if published else None,
        )
    return out
