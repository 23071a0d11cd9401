"""FIDE Rating Regulations 8.3.1 as worded from 1 October 2025 (rule set fide-2025) and the
K 10 rule "once 2400 was reached" (peak rating), against fide-2024."""

import pytest

from ratings.rules import GameIn, PlayerIn, development_factor, evaluate_period, expected_score, get_rules

FIDE_2024, FIDE_2025 = get_rules("fide-2024"), get_rules("fide-2025")


def _period(rules, opponents):
    """The 2813 player (K 10) against (rating, his score); opponents are adults with 100 games."""
    players = [PlayerIn("gm", 2813, games_count=900)]
    players += [PlayerIn(i, rating, games_count=100) for i, (rating, _) in enumerate(opponents)]
    games = [GameIn(i, "gm", i, score) for i, (_, score) in enumerate(opponents)]
    return evaluate_period(rules, players, games)


def test_fide_2025_example_2813_beats_1787():
    result = _period(FIDE_2025, [(1787, 1.0)])
    gm, calc = result.players["gm"], next(c for c in result.games if c.player == "gm")
    # Full difference 1026 on his side: table expectation 1.00, change 1.00 - 1.00 = 0.00.
    assert (calc.difference, calc.expected, calc.factor, calc.change) == (1026, 1.0, 10, 0.0)
    assert (gm.change, gm.rounded_change, gm.new_rating) == (0.0, 0, 2813)
    # The opponent keeps the 400 cap: E 0.08, K 20, 20 x (0 - 0.08) = -1.6 -> -2.
    loser = result.players[0]
    assert (loser.expected, loser.factor, loser.rounded_change, loser.new_rating) == (0.08, 20, -2, 1785)
    assert loser.change == pytest.approx(-1.6, abs=1e-12)


def test_fide_2024_still_caps_his_side():
    calc = next(c for c in _period(FIDE_2024, [(1787, 1.0)]).games if c.player == "gm")
    assert calc.expected == 0.92 and calc.change == pytest.approx(0.8, abs=1e-12)


# Wins against 1787 (D 1026: E 1.00), 2013 (D 800: 1.00), 2273 (D 540: 0.97); draws against
# 2620 (D 193: 0.75) and 2793 (D 20: 0.53). fide-2025: 0 + 0 + 0.3 - 2.5 - 0.3 = -2.50;
# fide-2024 (every D capped at 400, E 0.92): 0.8 + 0.8 + 0.8 - 2.5 - 0.3 = -0.40.
PERIOD = [(1787, 1.0), (2013, 1.0), (2273, 1.0), (2620, 0.5), (2793, 0.5)]


@pytest.mark.parametrize(("rules", "change", "new"), [(FIDE_2025, -2.5, 2810), (FIDE_2024, -0.4, 2813)])
def test_a_period_sums_as_fide_publishes_it(rules, change, new):
    gm = _period(rules, PERIOD).players["gm"]
    assert gm.change == pytest.approx(change, abs=1e-9)
    assert gm.new_rating == new


def test_full_difference_only_from_2650():
    assert expected_score(FIDE_2025, 2650, 2000) == 0.99  # D 650
    assert expected_score(FIDE_2025, 2649, 1999) == 0.92  # capped at 400
    assert expected_score(FIDE_2025, 2000, 2650) == 0.08  # the lower side keeps the cap
    assert expected_score(FIDE_2025, 2700, 2650) == expected_score(FIDE_2024, 2700, 2650) == 0.57


def test_fide_2025_offered_like_fide_2024():
    for field in ("expectation", "difference_cap", "k_new", "k_standard", "k_high", "k_games_cap", "floor",
                  "min_games", "hypothetical_draws", "first_rating_cap", "periods_per_year"):
        assert getattr(FIDE_2025, field) == getattr(FIDE_2024, field), field
    assert (FIDE_2025.full_difference_from, FIDE_2024.full_difference_from) == (2650, None)


@pytest.mark.parametrize("rules", [FIDE_2024, FIDE_2025])
def test_k_10_once_2400_was_reached(rules):
    assert development_factor(rules, rating=2395, games_count=100) == 20
    assert development_factor(rules, rating=2395, games_count=100, peak_rating=2399) == 20
    assert development_factor(rules, rating=2395, games_count=100, peak_rating=2400) == 10
    # The first 30 games keep K 40 whatever the peak.
    assert development_factor(rules, rating=2395, games_count=10, peak_rating=2450) == 40
    players = [PlayerIn("a", 2395, games_count=100, peak_rating=2412), PlayerIn("b", 2395, games_count=100)]
    result = evaluate_period(rules, players, [GameIn(1, "a", "b", 1.0)])
    assert (result.players["a"].factor, result.players["a"].rounded_change) == (10, 5)
    assert (result.players["b"].factor, result.players["b"].rounded_change) == (20, -10)
