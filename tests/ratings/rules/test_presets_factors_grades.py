"""Presets, factors, half rating, classes, Go grades, rounding."""

import dataclasses
import math
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

import pytest

from ratings.rules import DEFAULT_RULES, PRESETS, UnknownRules, development_factor, get_rules
from ratings.rules.classes import chess_class, chess_class_label, go_grade
from ratings.rules.factor import egf_con, k_games_capped
from ratings.rules.halfrating import half_rating, half_rating_valid_until
from ratings.rules.newcomers import start_formula
from ratings.rules.rounding import round_half_away


def test_presets_and_unknown_names():
    assert DEFAULT_RULES == "oesb-classic" and set(PRESETS) == {
        "oesb-classic", "oesb-2012", "oesb-2024", "fide-2024", "fide-2025", "fide-2005", "dsb-1990",
        "egf-classic", "egf-2021",
    }
    assert dataclasses.replace(get_rules("oesb-classic"), expectation="table").expectation == "table"
    with pytest.raises(UnknownRules, match="oesb-classic, oesb-2012"):
        get_rules("elo")
    with pytest.raises(ValueError):
        dataclasses.replace(get_rules("oesb-classic"), expectation="dice")
    floors = [PRESETS[n].floor for n in ("oesb-classic", "oesb-2012", "oesb-2024", "fide-2024")]
    assert floors == [1200, 800, 1200, 1400]


def test_round_half_away_from_zero():
    values = (0.5, 1.5, 2.5, -0.5, -2.5, 2.4999999999999996)
    assert [round_half_away(x) for x in values] == [1, 2, 3, -1, -3, 3]
    assert round_half_away(0.1 + 0.2 + 0.2) == 1 and round_half_away(9.3065, 3) == 9.307


def test_round_half_away_of_whole_numbers_as_in_decimal_arithmetic():
    def in_decimal(value: float, decimals: int):
        exact = Decimal(repr(value)).quantize(Decimal("1e-9"), rounding=ROUND_HALF_UP)
        rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        return int(rounded) if decimals == 0 else float(rounded)

    for value in (1712.0, -17.0, 0.0, -0.0, 2400.0, 1e15, -3e15):
        for decimals in (0, 1, 3):
            got, expected = round_half_away(value, decimals), in_decimal(value, decimals)
            sign, expected_sign = math.copysign(1, got), math.copysign(1, expected)
            assert (got, type(got), sign) == (expected, type(expected), expected_sign)


def test_round_half_away_of_any_float_as_in_decimal_arithmetic():
    """The float shortcut far from a half gives what the decimal arithmetic gives: random values
    of every size the tables show, and values at, just beside and a hair beside a half."""
    import random

    def in_decimal(value: float, decimals: int):
        exact = Decimal(repr(value)).quantize(Decimal("1e-9"), rounding=ROUND_HALF_UP)
        rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        return int(rounded) if decimals == 0 else float(rounded)

    rng = random.Random(2026)
    values = [rng.uniform(-1, 1) * 10 ** rng.uniform(-4, 9) for _ in range(20000)]
    values += [sum(rng.uniform(-20, 20) for _ in range(rng.randint(1, 9))) for _ in range(5000)]
    for decimals in (0, 1, 2, 3):
        for k in range(-3000, 3000, 7):
            half = (k + 0.5) / 10 ** decimals
            values += [half, math.nextafter(half, 0), math.nextafter(half, math.inf), half + 1e-10,
                       half - 1e-10, half + 3e-6 / 10 ** decimals, half - 3e-6 / 10 ** decimals]
    values += [0.0049999999999, -0.0049999999999, 2.4999999995, 2.4999999994, 1e-300, -1e-300, 99999999.5,
               123456789.25, -0.04, -0.4]
    for value in values:
        for decimals in (0, 1, 2, 3, 4):
            got, expected = round_half_away(value, decimals), in_decimal(value, decimals)
            sign, expected_sign = math.copysign(1, got), math.copysign(1, expected)
            assert (got, type(got), sign) == (expected, type(expected), expected_sign), (value, decimals)


def test_fide_k_rules():
    fide = get_rules("fide-2024")
    assert development_factor(fide, rating=2000, games_count=29) == 40
    assert development_factor(fide, rating=2000, games_count=30) == 20
    assert development_factor(fide, rating=2250, games_count=99, birth_year=2008, year=2026) == 40  # turns 18
    assert development_factor(fide, rating=2250, games_count=99, birth_year=2007, year=2026) == 20
    assert development_factor(fide, rating=2350, games_count=99, birth_year=2010, year=2026) == 20
    assert development_factor(fide, rating=2390, games_count=99, reached_2400=True) == 10
    assert development_factor(fide, rating=2400, games_count=99) == 10
    # K x n <= 700: 40 x 20 games = 800 -> K 35
    assert k_games_capped(fide, 40, 20) == 35 and k_games_capped(fide, 40, 17) == 40
    assert k_games_capped(get_rules("fide-2005"), 25, 40) == 25


def test_egf_con_is_linear_between_the_table_points():
    assert egf_con(50) == 116 and egf_con(2100) == 24 and egf_con(2150) == 22.5 and egf_con(3000) == 10


def test_start_formula():
    # 7 games, 4.5 points against an average of 1600: 1600 + 700 x (4.5/7 - 0.5) x 7/9 = 1677.78
    assert start_formula(1600, 4.5, 7) == pytest.approx(1677.777777, abs=1e-5)


def test_half_rating():
    assert half_rating([2000, 2100, 2200], 1.5) is None  # fewer than 4 games
    assert half_rating([2000, 2100, 2200, 2300], 2.0) == 2150  # 50 %: the average
    assert half_rating([2000, 2100, 2200, 2300], 3.0) == 2175  # two half points above: +25
    # Below 50 %: performance 2150 + dp(0.25) = 2150 - 193
    assert half_rating([2000, 2100, 2200, 2300], 1.0) == 1957
    assert half_rating_valid_until(date(2024, 3, 10)) == date(2025, 12, 31)
    assert half_rating_valid_until(date(2024, 7, 1)) == date(2026, 6, 30)


@pytest.mark.parametrize(
    ("rating", "code"),
    [(2700, "WC"), (2600, "WC"), (2599, "GM"), (2200, "NM"), (2000, "CM"), (1999, "A"), (1600, "B"),
     (1400, "C"), (1200, "D"), (1199, "E"), (1000, "E"), (999, "F"), (700, "F")],
)
def test_chess_classes(rating, code):
    assert chess_class(rating) == code
    assert chess_class_label(code)


def test_chess_classes_are_consecutive_200_point_bands_with_neutral_labels():
    from ratings.rules.classes import CHESS_CLASSES

    bounds = [lower for lower, _code, _label in CHESS_CLASSES[:-1]]
    assert bounds == list(range(2600, 999, -200))
    assert [code for _l, code, _label in CHESS_CLASSES][4:] == ["A", "B", "C", "D", "E", "F"]
    assert chess_class_label(chess_class(1050)) == "Class E"  # e.g. a 13-year-old: no judgement


@pytest.mark.parametrize(
    ("gor", "grade"),
    # The encyclopedia article's ranges: 21k-18k 0-349, 17k-14k 350-749, 4k-1k 1650-2049, 1d-3d 2050-2349,
    # 4d-6d 2350-2649; a grade is its nominal GoR +-50. Professional above 2700 (docs/rules.md §5).
    [(2100, "1d"), (2050, "1d"), (2149, "1d"), (2150, "2d"), (2349, "3d"), (2350, "4d"), (2649, "6d"),
     (2650, "7d"), (2700, "7d"), (2701, "pro"), (2049, "1k"), (2000, "1k"), (1950, "1k"), (1949, "2k"),
     (1650, "4k"), (1649, "5k"), (750, "13k"), (749, "14k"), (350, "17k"), (349, "18k"), (100, "20k"),
     (50, "20k"), (49, "21k"), (0, "21k"), (-2000, "30k")],
)
def test_go_grades(gor, grade):
    assert go_grade(gor) == grade


# What each rule set offers beyond the calculation: the services and pages ask these flags,
# never the rule set's name.
CAPABILITIES = {
    # name: (family, go grades, FIDE take-over, table option, 2024 transformation, inactivity years)
    "oesb-classic": ("oesb", False, True, True, True, 7),
    "oesb-2012": ("oesb", False, True, True, True, 7),
    "oesb-2024": ("oesb", False, True, True, True, 7),
    "fide-2024": ("fide", False, True, False, False, None),
    "fide-2025": ("fide", False, True, False, False, None),
    "fide-2005": ("fide", False, True, False, False, None),
    "dsb-1990": ("dsb", False, True, False, False, None),
    "egf-classic": ("egf", True, False, False, False, None),
    "egf-2021": ("egf", True, False, False, False, None),
}


def test_every_rule_set_states_its_capabilities():
    assert {
        name: (rules.family, rules.go_grades, rules.fide_takeover, rules.table_option,
               rules.transformation_2024, rules.inactivity_years)
        for name, rules in PRESETS.items()
    } == CAPABILITIES


@pytest.mark.parametrize(("name", "by_difference"), [
    ("oesb-classic", True), ("fide-2024", True), ("fide-2025", False), ("dsb-1990", True),
    ("egf-classic", False), ("egf-2021", False),
])
def test_expectation_of_the_difference_only(name, by_difference):
    assert get_rules(name).expectation_of_difference is by_difference
