"""Hypothesis properties of the engine."""

import dataclasses
import random
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.rules import PRESETS, GameIn, PlayerIn, evaluate_period, expected_score, get_rules
from ratings.rules.expectation import polynomial, table

RULES = list(PRESETS.values()) + [dataclasses.replace(PRESETS["oesb-classic"], expectation="table")]
ratings = st.integers(min_value=100, max_value=2900)


@given(st.sampled_from(RULES), ratings, ratings)
def test_expectations_sum_to_one_and_stay_in_range(rules, a, b):
    e = expected_score(rules, a, b)
    assert 0.0 <= e <= 1.0
    # FIDE 8.3.1 from October 2025: only the 2650+ player counts a difference above 400.
    uncapped = rules.full_difference_from is not None and max(a, b) >= rules.full_difference_from
    if uncapped and abs(a - b) > rules.difference_cap:
        # The stronger player's uncapped expectation is at least what the cap would give him, so
        # the two never sum to less than one (equal where the table is flat beyond 400).
        assert e + expected_score(rules, b, a) >= 1.0 - 1e-12
    else:
        assert abs(e + expected_score(rules, b, a) - 1.0) < 1e-12


@given(st.sampled_from(RULES), ratings, ratings, ratings)
def test_expectation_is_monotone(rules, own, low, high):
    low, high = sorted((low, high))
    # A stronger opponent never raises the expectation; a stronger self never lowers it.
    assert expected_score(rules, own, high) <= expected_score(rules, own, low)
    assert expected_score(rules, low, own) <= expected_score(rules, high, own)


@given(st.integers(min_value=-1200, max_value=1200))
def test_table_and_polynomial_agree_within_a_hundredth(d):
    assert abs(table(d) - polynomial(d)) <= 0.01 + 1e-12


def _random_period(seed):
    rng = random.Random(seed)
    players = [PlayerIn(f"r{i}", rng.randint(1300, 2300)) for i in range(12)]
    players += [PlayerIn(f"n{i}", None) for i in range(6)]
    keys = [p.key for p in players]
    games = []
    for g in range(90):
        w, b = rng.sample(keys, 2)
        games.append(GameIn(g, w, b, rng.choice((0.0, 0.5, 1.0))))
    # Every newcomer meets a rated player at least once, so the iteration converges.
    games += [GameIn(100 + i, f"n{i}", f"r{i}", 0.5) for i in range(6)]
    return players, games


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.randoms(use_true_random=False))
def test_newcomer_iteration_converges_and_ignores_order(seed, rnd):
    players, games = _random_period(seed)
    rules = get_rules("oesb-classic")
    first = evaluate_period(rules, players, games)
    assert first.iterations < 1000
    shuffled_players, shuffled_games = players[:], games[:]
    rnd.shuffle(shuffled_players)
    rnd.shuffle(shuffled_games)
    second = evaluate_period(rules, shuffled_players, shuffled_games)
    for key, a in first.players.items():
        b = second.players[key]
        if a.newcomer:
            assert a.start_value == b.start_value  # math.fsum: exactly the same value
            assert (a.published, a.new_rating, a.games) == (b.published, b.new_rating, b.games)
        else:
            assert abs(a.change - b.change) < 1e-9 and a.new_rating == b.new_rating


def test_iteration_reaches_a_fixed_point():
    # n1 and n2 only meet each other after one game each against r (1600).
    players = [PlayerIn("r", 1600), PlayerIn("n1", None), PlayerIn("n2", None)]
    games = [GameIn(0, "n1", "r", 1.0), GameIn(1, "n2", "r", 0.0)]
    games += [GameIn(2 + i, "n1", "n2", 1.0 if i % 2 else 0.5) for i in range(8)]
    result = evaluate_period(get_rules("oesb-classic"), players, games)
    v1, v2 = result.players["n1"].start_value, result.players["n2"].start_value
    # Fixed point of start = average + 700 (p - 0.5) n / (n + 2) within the tolerance:
    # n1: 9 games, 1 + (4 x 1 + 4 x 0.5) = 7 points; n2: 9 games, 0 + 2 = 2 points.
    assert abs(v1 - ((1600 + 8 * v2) / 9 + 700 * (7 / 9 - 0.5) * 9 / 11)) < 0.01
    assert abs(v2 - ((1600 + 8 * v1) / 9 + 700 * (2 / 9 - 0.5) * 9 / 11)) < 0.01
    assert result.players["n1"].published and result.players["n1"].games == 9


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1200, max_value=2800), st.lists(st.sampled_from((0.0, 0.5, 1.0)), max_size=6))
def test_games_against_an_unpublished_newcomer_are_pending(rating, scores):
    players = [PlayerIn("r", rating), PlayerIn("n", None)]
    games = [GameIn(i, "r", "n", s) for i, s in enumerate(scores)]  # fewer than 7 games
    result = evaluate_period(get_rules("oesb-classic"), players, games)
    r, n = result.players["r"], result.players["n"]
    assert r.games == 0 and r.change == 0 and r.new_rating == rating
    # Rated players at or above the floor (1200): the floor cannot move them.
    assert r.pending_games == len(scores) and n.pending_games == len(scores)
    assert not n.published and result.pending == games
    # Next period the newcomer plays enough: the carried games are rated against his start.
    more = [GameIn(100 + i, "n", "r", 0.5) for i in range(7)]
    later = evaluate_period(get_rules("oesb-classic"), players, result.pending + more)
    assert later.players["n"].published and later.players["n"].games == len(scores) + 7
    assert later.players["r"].games == len(scores) + 7 and later.pending == []


def test_published_newcomer_keeps_only_the_other_sides_pending():
    rated = [PlayerIn(f"r{i}", 1500 + 10 * i) for i in range(7)]
    players = rated + [PlayerIn("a", None), PlayerIn("b", None)]
    games = [GameIn(i, "a", f"r{i}", 0.5) for i in range(7)] + [GameIn(9, "a", "b", 1.0)]
    games.append(GameIn(10, "b", "r0", 0.0))
    result = evaluate_period(get_rules("oesb-classic"), players, games)
    assert result.players["a"].published and result.players["a"].games == 8
    assert not result.players["b"].published
    assert GameIn(9, "a", "b", 1.0, only_for="b") in result.pending
    assert GameIn(10, "b", "r0", 0.0) in result.pending
    assert result.players["r0"].games == 1  # against a's published start value


def test_rules_package_imports_without_django():
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name == 'django' or name.startswith('django.'):\n"
        "        raise ImportError('django imported: ' + name)\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "import ratings.rules, ratings.rules.period, ratings.rules.forecast, ratings.rules.halfrating\n"
        "import ratings.rules.classes, ratings.rules.performance\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert done.returncode == 0, done.stderr
