"""clubrating.core.formatting and its ``numbers`` template filters: the one number format of every
page, print-out, export and long table, held to exact texts in German and English."""

import random

import pytest
from django.template import Context, Template
from django.test import override_settings
from django.utils import numberformat, translation

from clubrating.core.formatting import (
    NumberTexts,
    change_text,
    decimal_text,
    game_change_text,
    id_text,
    number_texts,
    points_text,
    rating_text,
    rating_value,
    signed,
)


def _both(function, *args):
    with translation.override("de-at"):
        de = function(*args)
    with translation.override("en"):
        en = function(*args)
    return de, en


@pytest.mark.parametrize(("value", "places", "de", "en"), [
    (2.375, 2, "2,38", "2.38"),  # half away from zero
    (2.384, 2, "2,38", "2.38"),
    (2.5, 2, "2,50", "2.50"),
    (-0.25, 1, "−0,3", "−0.3"),  # a real minus
    (12345.6, 1, "12345,6", "12345.6"),  # never grouped
    (1234567.891, 2, "1234567,89", "1234567.89"),
    (0.004, 2, "0,00", "0.00"),
    (0.005, 2, "0,01", "0.01"),
    (-0.005, 2, "−0,01", "−0.01"),
    (2.675, 2, "2,68", "2.68"),  # the float 2.67499999… rounds as the decimal it was written as
    (9.995, 2, "10,00", "10.00"),
    (1.0049999, 2, "1,00", "1.00"),
    (5, 1, "5,0", "5.0"),
    (5, 0, "5", "5"),
    (2.5, 0, "3", "3"),
    (-2.5, 0, "−3", "−3"),
    (0, 1, "0,0", "0.0"),
    (0.0, 2, "0,00", "0.00"),
    (-0.0, 1, "−0,0", "−0.0"),  # a negative zero keeps its sign, as it always has on the pages
    (-0.004, 2, "−0,00", "−0.00"),
    (1e-7, 3, "0,000", "0.000"),
    (-1e-7, 1, "−0,0", "−0.0"),
    (1e16, 1, "10000000000000000,0", "10000000000000000.0"),  # str() would write "1e+16"
    ("2.5", 1, "2,5", "2.5"),
    (None, 1, "", ""),
    ("", 2, "", ""),
])
def test_decimal_text(value, places, de, en):
    assert _both(decimal_text, value, places) == (de, en)


@pytest.mark.parametrize(("value", "de", "en"), [
    (4.5, "4,5", "4.5"), (0.5, "0,5", "0.5"), (4, "4,0", "4.0"), (4.0, "4,0", "4.0"),
    (10.25, "10,3", "10.3"), (None, "", ""),
])
def test_points_have_one_decimal(value, de, en):
    assert _both(points_text, value) == (de, en)


@pytest.mark.parametrize(("value", "decimals", "de", "en"), [
    (5, 0, "+5", "+5"),
    (-14, 0, "−14", "−14"),
    (0, 0, "±0", "±0"),
    (0.0, 2, "±0,00", "±0.00"),
    (-0.0, 1, "±0,0", "±0.0"),
    (0.04, 1, "±0,0", "±0.0"),
    (-0.04, 1, "±0,0", "±0.0"),
    (0.05, 1, "+0,1", "+0.1"),
    (7.25, 1, "+7,3", "+7.3"),  # half away from zero
    (-7.25, 1, "−7,3", "−7.3"),
    (-14.25, 1, "−14,3", "−14.3"),
    (-2.5, 0, "−3", "−3"),
    (-0.845, 2, "−0,85", "−0.85"),
    (4.938, 2, "+4,94", "+4.94"),
    (1234.5, 1, "+1234,5", "+1234.5"),  # never grouped
    (17.5, -3, "+17,500", "+17.500"),  # whole numbers without decimals, others with three
    (17.0, -3, "+17", "+17"),
    (-3.25, -3, "−3,250", "−3.250"),
    (None, 0, "", ""),
    (None, -3, "", ""),
])
def test_signed(value, decimals, de, en):
    assert _both(signed, value, decimals) == (de, en)


@pytest.mark.parametrize(("value", "de", "en"), [
    # The game page showed "1,7378988610873098 / -0,38497759581048": no sign, ASCII hyphen.
    (1.7378988610873098, "+1,7", "+1.7"),
    (-0.38497759581048, "−0,4", "−0.4"),
    (0.04, "±0,0", "±0.0"),
    (-7.25, "−7,3", "−7.3"),  # half away from zero, as the rules round
    (17, "+17,0", "+17.0"),
    (None, "", ""),
    ("", "", ""),
])
def test_a_change_not_yet_rounded_has_one_decimal(value, de, en):
    assert _both(game_change_text, value) == (de, en)


@pytest.mark.parametrize(("value", "de", "en"), [
    (5.0, "+5", "+5"), (-14, "−14", "−14"), (0, "±0", "±0"), (2.5, "+2,500", "+2.500"),
    (None, "", ""), ("", "", ""),
])
def test_change_text(value, de, en):
    assert _both(change_text, value) == (de, en)


@pytest.mark.parametrize(("value", "de", "en"), [
    (1835.0, "1835", "1835"),
    (1835, "1835", "1835"),
    (12345.0, "12345", "12345"),  # never grouped
    (2107.4, "2107,400", "2107.400"),  # an EGF rating keeps three decimals
    (1234.567, "1234,567", "1234.567"),
    (2109.3064, "2109,306", "2109.306"),
    (-3.0, "-3", "-3"),
    (None, "—", "—"),
    ("", "—", "—"),
])
def test_rating_text(value, de, en):
    assert _both(rating_text, value) == (de, en)


def test_rating_text_takes_the_text_for_none():
    assert _both(rating_text, None, "") == ("", "")


@pytest.mark.parametrize(("value", "number"), [
    (1835.0, 1835), (1835, 1835), (2109.3064, 2109.306), (-3.0, -3), (None, None), ("", None),
])
def test_rating_value_is_the_number_rating_text_shows(value, number):
    assert rating_value(value) == number
    assert type(rating_value(value)) is type(number)


@pytest.mark.parametrize(("value", "text"), [
    (1600238, "1600238"), ("1600238", "1600238"), (None, ""), ("", ""),
])
def test_identifiers_are_never_grouped(value, text):
    assert _both(id_text, value) == (text, text)


def test_the_filters():
    template = Template(
        "{% load numbers %}{{ p|points }} {{ e|decimal:2 }} {{ w|signed }} {{ z|signed }} {{ r|signed:1 }} "
        "{{ a|signed:0 }} {{ c|signed:-3 }} {{ x|signed }}|{{ g|game_change }} {{ k|rating }} "
        '{{ h|rating_change }} {{ n|rating_change:"—" }} {{ n|rating }}|{{ n|rating:"" }}|'
        "{{ f|plain }}|{{ n|plain }}"
    )
    context = Context({"p": 4.5, "e": 2.384, "w": -0.845, "z": 0, "r": 7.25, "a": -3.4, "c": 17.5, "x": "",
                       "g": -0.38497759581048, "k": 12345.0, "h": -3.0, "n": None, "f": 1600238})
    with translation.override("de-at"):
        assert template.render(context) == (
            "4,5 2,38 −0,85 ±0,00 +7,3 −3 +17,500 |−0,4 12345 −3 — —||1600238|")
    with translation.override("en"):
        assert template.render(context) == (
            "4.5 2.38 −0.85 ±0.00 +7.3 −3 +17.500 |−0.4 12345 −3 — —||1600238|")


def test_the_performance_tag_shows_its_games():
    template = Template("{% load numbers %}{% performance rp 3 %}|{% performance none 0 %}")
    with translation.override("en"):
        assert template.render(Context({"rp": 2273.0, "none": None})) == (
            '<span class="rp">2273</span> <span class="small text-muted rp-games" '
            'title="rated games it rests on">(3)</span>|')


def test_each_language_has_its_decimal_mark_looked_up_once():
    with translation.override("de-at"):
        german = number_texts()
        assert german.mark == "," and number_texts() is german
    with translation.override("en"):
        assert number_texts().mark == "."


def test_a_changed_setting_is_seen():
    # A language without a format module of its own takes the mark from the settings.
    with translation.override("xx"):
        assert decimal_text(2.5) == "2.5"
        with override_settings(DECIMAL_SEPARATOR="#"):
            assert decimal_text(2.5) == "2#5"
        assert decimal_text(2.5) == "2.5"


def test_the_digits_are_djangos():
    """``NumberTexts.fixed`` writes what Django's ``numberformat.format`` writes without grouping,
    for rounded and unrounded values, whole numbers, and floats str() writes with an exponent."""
    rng = random.Random(7)
    values = [0, 0.0, -0.0, 5, -5, 0.5, 1e-7, -1e-7, 1e16, -1.5e17, 1e250, -2.5e-300, 123456789.125]
    values += [rng.uniform(-5000, 5000) for _ in range(1500)]
    values += [round(rng.uniform(-100, 100), rng.randint(0, 4)) for _ in range(1500)]
    for mark in (",", "."):
        texts = NumberTexts(mark)
        for value in values:
            for places in (0, 1, 2, 3):
                expected = numberformat.format(value, mark, places, grouping=0)
                assert texts.fixed(value, places) == expected, (value, places)
