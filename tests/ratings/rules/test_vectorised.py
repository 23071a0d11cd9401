"""The vectorised evaluation gives the reference's results on random periods."""

import dataclasses
import random

import numpy as np
import pytest

from ratings.rules import PRESETS, GameIn, PlayerIn, evaluate_period, get_rules
from ratings.rules import vectorised as vec
from ratings.rules.columns import columns_from_games, games_from_sides
from ratings.rules.period import evaluate_period_reference
from ratings.rules.vectorised import evaluate_period_vectorised, round_half_away_array

OESB_TABLE = dataclasses.replace(PRESETS["oesb-classic"], expectation="table")
RULES = [PRESETS["oesb-classic"], OESB_TABLE, PRESETS["oesb-2012"], PRESETS["oesb-2024"],
         PRESETS["fide-2024"], PRESETS["fide-2025"], PRESETS["fide-2005"]]


def random_period(seed: int, *, keys: str = "dense"):
    """Rated players (some 2650+, juniors, peaks above 2400, many games for K x n <= 700),
    newcomers who meet rated players, groups of newcomers who meet only each other and one
    rated player, newcomers with fewer than 7 games, and carried games that count for one side."""
    rng = random.Random(seed)
    # Keys as the lookups see them: dense whole numbers (a table), sparse ones (a sorted
    # search), strings (a dict).
    key = {"dense": lambda i: i * 3 + 7, "sparse": lambda i: i * 1_000_003,
           "strings": lambda i: f"p{i}"}[keys]
    rated = [
        PlayerIn(key(i), rng.randint(1000, 2850), games_count=rng.choice((0, 5, 29, 30, 34, 200)),
                 birth_year=rng.choice((None, 2010, 1980)), reached_2400=rng.random() < 0.05,
                 peak_rating=rng.choice((None, None, rng.randint(2300, 2500))))
        for i in range(40)
    ]
    newcomers = [PlayerIn(key(i), None) for i in range(40, 55)]
    players = rated + newcomers
    games = []

    def add(w, b, only=None):
        if w != b:
            games.append(GameIn(len(games), w, b, rng.choice((0.0, 0.5, 1.0)), only_for=only))

    for _ in range(400):
        w, b = rng.sample(players[:40], 2)
        add(w.key, b.key)
    for n in newcomers[:3]:  # enough games against rated players for every rule set
        for _ in range(10):
            add(n.key, rng.choice(players[:40]).key)
    for n in newcomers[:8]:  # and against each other
        for _ in range(rng.randint(5, 12)):
            add(n.key, rng.choice(players[:48]).key if rng.random() < 0.7 else rng.choice(newcomers[:8]).key)
    group = newcomers[8:12]  # a group meeting each other, one of them also a rated player
    for a in group:
        for b in group:
            if a.key != b.key:
                add(a.key, b.key)
    add(group[0].key, players[0].key)
    for n in newcomers[12:]:  # fewer than 7 games: pending
        for _ in range(rng.randint(1, 4)):
            add(n.key, rng.choice(players[:40]).key)
    for _ in range(20):  # carried games counting for one side
        w, b = rng.sample(players[:50], 2)
        add(w.key, b.key, rng.choice((w.key, b.key)))
    for g in list(games[:30]):  # one player with many games: FIDE K x n <= 700
        add(players[1].key, g.black if g.black != players[1].key else g.white)
    rng.shuffle(games)
    rng.shuffle(players)
    return players, games


def assert_same(a, b):
    """Identical results: every field, to the last bit of every float."""
    assert list(a.players) == list(b.players)
    fields = ("key", "rating", "games", "points", "expected", "factor", "change", "rounded_change",
              "new_rating", "start_value", "published", "newcomer", "pending_games", "markers")
    for key, x in a.players.items():
        y = b.players[key]
        assert [getattr(x, f) for f in fields] == [getattr(y, f) for f in fields], key
    assert a.pending == b.pending
    assert a.iterations == b.iterations
    assert [(u.game, u.player, u.opponent, u.own_rating, u.opponent_rating, u.score, u.expected, u.change)
            for u in a.games] == [
        (v.game, v.player, v.opponent, v.own_rating, v.opponent_rating, v.score, v.expected, v.change)
        for v in b.games]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.expectation}")
@pytest.mark.parametrize("seed", range(6))
def test_same_results_as_the_reference(rules, seed):
    players, games = random_period(seed, keys=("dense", "sparse", "strings")[seed % 3])
    reference = evaluate_period_reference(rules, players, games, year=2026)
    fast = evaluate_period_vectorised(rules, players, games, year=2026)
    assert_same(reference, fast)
    assert any(p.published for p in fast.players.values() if p.newcomer)
    assert fast.pending  # the newcomers below 7 games wait


def test_the_periods_exercise_the_rules():
    players, games = random_period(0)
    fide = evaluate_period_vectorised(get_rules("fide-2024"), players, games, year=2026)
    assert {p.factor for p in fide.players.values() if not p.newcomer} >= {10, 20, 40}
    assert any(p.games * 40 > 700 and p.factor < 40 for p in fide.players.values() if not p.newcomer)
    oesb = evaluate_period_vectorised(get_rules("oesb-classic"), players, games, year=2026)
    assert any(p.factor == 850 / 200 for p in oesb.players.values() if not p.newcomer)
    assert oesb.iterations > 2


def test_production_uses_the_vectorised_evaluation_where_it_applies():
    assert [name for name, rules in PRESETS.items() if vec.applies(rules)] == [
        "oesb-classic", "oesb-2012", "oesb-2024", "fide-2024", "fide-2025", "fide-2005",
    ]
    players, games = random_period(3)
    for rules in PRESETS.values():  # dsb and egf through the reference
        assert_same(evaluate_period(rules, players, games, year=2026),
                    evaluate_period_reference(rules, players, games, year=2026))


@pytest.mark.parametrize(
    ("bad", "message"),
    [(GameIn(9, 7, 7, 1.0), "cannot play himself"), (GameIn(9, 7, 99, 1.0), "unknown player"),
     (GameIn(9, 7, 10, 0.3), "score 0.3"), (GameIn(9, 7, 10, 1.0, only_for=13), "only_for")],
)
def test_refusals_are_the_references(bad, message):
    players, games = random_period(0)
    games = games[:5] + [bad] + games[5:]
    for evaluate in (evaluate_period_reference, evaluate_period_vectorised):
        with pytest.raises(ValueError, match=message):
            evaluate(get_rules("oesb-classic"), players, games)


def test_empty_period():
    result = evaluate_period_vectorised(get_rules("fide-2025"), [PlayerIn(1, 2000), PlayerIn(2, None)], [])
    assert result.players[1].new_rating == 2000 and result.players[2].newcomer and not result.pending


def test_rounding_matches_round_half_away():
    values = np.array([2.5, -2.5, 2.4999999999997, -0.5, 0.49999, 1e6 + 0.5, 3.0, -3.7])
    assert round_half_away_array(values).tolist() == [3, -3, 3, -1, 0, 1000001, 3, -4]


@pytest.mark.parametrize("name", ["oesb-2024", "fide-2005", "fide-2025"])
@pytest.mark.parametrize("size", [10, 5000])
def test_expectations_are_the_scalar_formulas_to_the_bit(name, size):
    """Fractional differences (newcomers' start values in the iteration) as well as whole ones:
    NumPy's own powers differ from the C library's in the last bit on some processors."""
    from ratings.rules.expectation import expected_score

    rules = get_rules(name)
    rng = random.Random(size)
    own = np.array([rng.uniform(1000, 2800) for _ in range(size)])
    opponent = np.array([rng.choice((rng.uniform(1000, 2800), float(rng.randint(1000, 2800))))
                         for _ in range(size)])
    expected = [expected_score(rules, a, b) for a, b in zip(own.tolist(), opponent.tolist())]
    assert vec.expected_scores(rules, own, opponent).tolist() == expected


@pytest.mark.parametrize("name", ["oesb-classic", "fide-2025"])
def test_a_large_period_as_the_benchmark_builds_it(name):
    # Large enough for the per-difference lookup of E (more than 4096 sides).
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from engine_bench import build

    players, games = build(1500, 12000, seed=7)
    rules = get_rules(name)
    assert_same(evaluate_period_reference(rules, players, games, year=2026),
                evaluate_period_vectorised(rules, players, games, year=2026))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.expectation}")
@pytest.mark.parametrize("seed", range(3))
def test_side_rows_hold_exactly_what_games_holds(rules, seed):
    """The stored columns come from ``side_rows`` (arrays); they are the GameCalc values to the bit."""
    players, games = random_period(seed, keys=("dense", "sparse", "strings")[seed % 3])
    rows = evaluate_period_vectorised(rules, players, games, year=2026).side_rows()
    calcs = evaluate_period_vectorised(rules, players, games, year=2026).games
    assert rows == {
        (c.game.key, c.player): (
            c.own_rating, c.opponent_rating, c.difference, c.expected, c.factor, c.change
        )
        for c in calcs
    }
    reference = evaluate_period_reference(rules, players, games, year=2026)
    assert reference.side_rows().keys() == rows.keys()


def as_side_records(games):
    """The games as the ratings service stores them: a record per side that counts."""
    records = []
    for g in games:
        sides = ((g.white, g.black, True, g.score), (g.black, g.white, False, 1.0 - g.score))
        for own, opp, white, score in sides:
            if g.only_for in (None, own):
                records.append((len(records), g.key, own, opp, white, score, g.only_for is not None))
    return records


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.expectation}")
@pytest.mark.parametrize("seed", range(3))
def test_columns_give_the_references_results(rules, seed):
    """Games handed over as columns (read from GameIn tuples, or from the stored side records as
    the ratings service does) give what the reference gives from the tuples."""
    players, games = random_period(seed, keys=("dense", "sparse", "dense")[seed])
    reference = evaluate_period_reference(rules, players, games, year=2026)
    from_tuples = evaluate_period_vectorised(rules, players, columns_from_games(games), year=2026)
    assert_same(reference, from_tuples)
    sides = games_from_sides(as_side_records(games), (1, 2, 3, 4, 5, 6))
    assert sides.to_games() == games
    assert_same(reference, evaluate_period(rules, players, sides, year=2026))


def test_columns_go_to_the_reference_where_arrays_do_not_apply():
    players, games = random_period(4)
    dsb = get_rules("dsb-1990")
    assert_same(evaluate_period(dsb, players, columns_from_games(games), year=2026),
                evaluate_period_reference(dsb, players, games, year=2026))
