"""Every worked example of docs/rules.md, exactly as stated."""

import dataclasses

import pytest

from ratings.rules import GameIn, PlayerIn, development_factor, evaluate_period, expected_score, get_rules
from ratings.rules.forecast import quick_expectation, team_forecast_exact, team_forecast_quick
from ratings.rules.halfrating import half_rating
from ratings.rules.performance import dp, performance_exact, performance_quick
from ratings.rules.period import dsb_blend
from ratings.rules.rounding import round_half_away

OESB = get_rules("oesb-classic")


def one_game(rules, a, b, score, games_count=100):
    """a (rated a) against b, a's score; returns (change a, change b) exact and result."""
    result = evaluate_period(
        rules, [PlayerIn("a", a, games_count), PlayerIn("b", b, games_count)], [GameIn(1, "a", "b", score)]
    )
    return result.players["a"], result.players["b"]


def test_oesb_draw_gives_plus_5():
    # F = (3400 - 1830)^2 / 100000 = 24.649 -> "24.6"; E(-150) = 0.30 (the rules' table).
    a, _ = one_game(OESB, 1830, 1980, 0.5, games_count=0)
    assert round(a.factor, 1) == 24.6 and round(a.expected, 2) == 0.30
    assert a.rounded_change == 5 and a.new_rating == 1835


def test_oesb_loss_gives_minus_14():
    # F = 1450^2 / 100000 = 21.025 -> "21.0"; E(130) = 0.68; (0 - 0.676) x 21.025 = -14.2.
    a, _ = one_game(OESB, 1950, 1820, 0.0, games_count=0)
    assert round(a.factor, 1) == 21.0 and round(a.expected, 2) == 0.68
    assert a.rounded_change == -14 and a.new_rating == 1936


def test_oesb_examples_with_the_table_too():
    table = dataclasses.replace(OESB, expectation="table")
    assert expected_score(table, 1830, 1980) == 0.30
    assert expected_score(table, 1950, 1820) == 0.68
    assert one_game(table, 1830, 1980, 0.5, 0)[0].rounded_change == 5
    assert one_game(table, 1950, 1820, 0.0, 0)[0].rounded_change == -14


def test_factor_reduction_1760_34_games():
    # 1640^2 / 100000 = 26.896 -> "26.9"; 850 / 34 = 25.0
    assert round(development_factor(OESB, rating=1760, games_count=0), 1) == 26.9
    assert development_factor(OESB, rating=1760, games_count=34) == 25.0
    # The reduction starts with game 32 (850 / 26.896 = 31.6), not 27 as the Austrian text says.
    assert development_factor(OESB, rating=1760, games_count=31) == pytest.approx(26.896)
    assert development_factor(OESB, rating=1760, games_count=32) == 850 / 32
    assert development_factor(get_rules("oesb-2012"), rating=1760, games_count=34) == pytest.approx(26.896)


def test_quick_performance_1770():
    # 20 games averaging 1650, 10 wins + 6 draws = 13 points = 65 %: 1650 - 400 + 520.
    assert performance_quick([1650] * 20, 13) == 1770
    # Exact: 1650 + dp(0.65) = 1650 + 110
    assert performance_exact([1650] * 20, 13) == 1760


def test_team_forecast_1_50():
    # The DSB explanation's sums (3792 vs 3392) show the teams are A = (1984, 1808), B = (1744, 1648).
    assert team_forecast_quick([1984, 1808], [1744, 1648]) == 1.5
    assert team_forecast_quick([1984, 1808], [1648, 1744]) == 1.5  # "tactical" order
    assert quick_expectation(1984 - 1744) + quick_expectation(1808 - 1648) == 1.5
    assert quick_expectation(1984 - 1648) + quick_expectation(1808 - 1744) == 1.5
    assert quick_expectation(40) == 0.55 and quick_expectation(500) == 1.0
    assert team_forecast_exact(get_rules("fide-2024"), [1984, 1808], [1744, 1648]) == pytest.approx(
        0.80 + 0.71
    )


@pytest.mark.parametrize(
    ("rules", "winner", "loser", "win", "loss"),
    [
        # E(-100) = 1/(1 + 10^0.25) = 0.3599; K 15: 15 x 0.640 = 9.6, 15 x 0.360 = 5.4
        ("fide-2005", 2100, 2200, 9.6, -9.6),
        ("fide-2005", 2200, 2100, 5.4, -5.4),
        # a = 205 - 2100/20 = 100; S_A = 1/(e + 1) = 0.2689; con 24 and 21:
        # 24 x 0.7311 = 17.55, 21 x -0.7311 = -15.35; 21 x 0.2689 = 5.65, 24 x -0.2689 = -6.45
        ("egf-classic", 2100, 2200, 17.5, -15.4),
        ("egf-classic", 2200, 2100, 5.6, -6.5),
    ],
)
def test_egf_elo_comparison_midfield(rules, winner, loser, win, loss):
    a, b = one_game(get_rules(rules), winner, loser, 1.0, games_count=100)
    assert round_half_away(a.change, 1) == win
    assert round_half_away(b.change, 1) == loss


def _wins_needed(rules, start, games_count):
    """Consecutive wins against opponents of the old strength until the rating rises 100."""
    r, n = start, 0
    while r < start + 100:
        f = development_factor(rules, rating=r, games_count=games_count)
        r += f * (1 - expected_score(rules, r, start))
        n += 1
    return n


def _games_needed(rules, start, games_count):
    """Games with the real expectation of a player 200 stronger until the rating rises 100."""
    true = expected_score(rules, start + 200, start)
    r, n = start, 0
    while r < start + 100:
        f = development_factor(rules, rating=r, games_count=games_count)
        r += f * (true - expected_score(rules, r, start))
        n += 1
    return n


# The EGF/Elo comparison's "Dynamik 1", EGF column: GoR before the pill -> games.
DYNAMIK_1_EGF = {
    2600: 30, 2500: 25, 2400: 21, 2300: 17, 2200: 14, 2100: 12, 2000: 11, 1900: 9, 1800: 8,
    1700: 7, 1600: 6, 1500: 6, 1400: 5, 1300: 5, 1200: 5, 1100: 4, 1000: 4, 900: 4, 800: 3,
    700: 3, 600: 3, 500: 3, 400: 3, 300: 3, 200: 2, 100: 2,
}


@pytest.mark.parametrize(("start", "games"), sorted(DYNAMIK_1_EGF.items()))
def test_dynamik_1_egf(start, games):
    assert _wins_needed(get_rules("egf-classic"), start, 0) == games


@pytest.mark.parametrize("start", range(1000, 2700, 100))
def test_dynamik_1_elo(start):
    fide = get_rules("fide-2005")
    # "16 (10)" below 2400 (K 15, K 25 below 30 games), 24 from 2400 (K 10).
    assert _wins_needed(fide, start, 30) == (24 if start >= 2400 else 16)
    assert _wins_needed(fide, start, 0) == 10


@pytest.mark.parametrize("start", range(900, 2700, 100))
def test_dynamik_2_elo(start):
    fide = get_rules("fide-2005")
    assert _games_needed(fide, start, 30) == (56 if start >= 2400 else 37)
    assert _games_needed(fide, start, 0) == 22


def test_fide_example_1922():
    # Table: D 124 -> 0.67, D 121 -> 0.66, D 25 -> 0.53;
    # 40 x (1 - 0.67) + 40 x (0 - 0.66) + 40 x (1 - 0.53) = 13.2 - 26.4 + 18.8 = 5.6
    fide = get_rules("fide-2024")
    players = [PlayerIn("x", 1922, 10), PlayerIn(1, 1798, 99), PlayerIn(2, 1801, 99), PlayerIn(3, 1897, 99)]
    games = [GameIn(1, "x", 1, 1.0), GameIn(2, 2, "x", 1.0), GameIn(3, "x", 3, 1.0)]
    x = evaluate_period(fide, players, games).players["x"]
    assert x.factor == 40
    assert x.change == pytest.approx(5.6, abs=1e-9) and round_half_away(x.change, 1) == 5.6
    assert x.new_rating == 1928


def test_egf_2021_2100_beats_2100():
    # con = 6^1.6 = 17.5809, E = 0.5 -> 8.7905; bonus = ln(1 + e^2.5) / 5 = 0.5158; 9.306
    a, _ = one_game(get_rules("egf-2021"), 2100, 2100, 1.0)
    assert a.new_rating == 2109.306


def test_dsb_blend_example():
    # 1165 x 10/30 + 1550 x 20/30 = 388.33 + 1033.33 = 1421.67 -> 1422; moved 257 -> "+++"
    assert dsb_blend(1165, 1550, 10) == (1422, "+++")
    assert dsb_blend(1500, 1540, 20) == (1513, "*")
    assert dsb_blend(1500, 1350, 15) == (1425, "-")


def test_dsb_period_blends_below_30_games():
    dsb = get_rules("dsb-1990")
    players = [PlayerIn("x", 1000, 0)] + [PlayerIn(i, 1400, 100) for i in range(10)]
    games = [GameIn(i, "x", i, 1.0 if i < 5 else 0.5 if i < 8 else 0.0) for i in range(10)]
    x = evaluate_period(dsb, players, games).players["x"]
    # 6.5 / 10 = 65 %: performance 1400 + dp(0.65) = 1510; progressive 1000 + round(change)
    assert x.performance == 1510
    progressive = 1000 + x.rounded_change
    assert x.new_rating == round_half_away(progressive / 3 + 1510 * 2 / 3)
    assert x.markers == "+++"


def test_dp_table_symmetry():
    assert dp(1.0) == 800 and dp(0.0) == -800 and dp(0.5) == 0 and dp(0.65) == 110 and dp(0.35) == -110
    assert dp(0.655) == 117  # p rounded half away from zero to 0.66


def test_newcomer_start_value_1717():
    # 1600 + 700 x (5/7 - 0.5) x 7/9 = 1600 + 116.67 -> 1717 after seven games
    players = [PlayerIn("new", None, 0)] + [PlayerIn(i, 1600, 100) for i in range(7)]
    games = [GameIn(i, "new", i, 1.0 if i < 4 else 0.5 if i < 6 else 0.0) for i in range(7)]
    new = evaluate_period(OESB, players, games).players["new"]
    assert new.new_rating == 1717


def test_half_rating_1925():
    # 4 of 6 against an average of 1900: two half points above 50 % -> 1900 + 2 x 12.5
    assert half_rating([1850, 1950, 1900, 1900, 1880, 1920], 4.0) == 1925
    assert half_rating([1900] * 6, 3.0) == 1900
    assert half_rating([1900] * 3, 3.0) is None
