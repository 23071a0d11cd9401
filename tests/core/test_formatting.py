"""clubrating.core.formatting.signed and its template filter: the one signed-change format."""

import pytest
from django.template import Context, Template
from django.utils import translation

from clubrating.core.formatting import signed


@pytest.mark.parametrize(("value", "decimals", "de", "en"), [
    (5, 0, "+5", "+5"),
    (-14, 0, "−14", "−14"),
    (0, 0, "±0", "±0"),
    (0.04, 1, "±0,0", "±0.0"),
    (7.25, 1, "+7,3", "+7.3"),  # half away from zero
    (-7.25, 1, "−7,3", "−7.3"),
    (-2.5, 0, "−3", "−3"),
    (1234.5, 1, "+1234,5", "+1234.5"),  # never grouped
    (17.5, -3, "+17,500", "+17.500"),
    (17.0, -3, "+17", "+17"),
    (None, 0, "", ""),
])
def test_signed(value, decimals, de, en):
    with translation.override("de-at"):
        assert signed(value, decimals) == de
    with translation.override("en"):
        assert signed(value, decimals) == en


def test_the_filter_takes_the_decimals():
    template = Template("{% load numbers %}{{ a|signed:0 }} {{ b|signed }} {{ c|signed:-3 }}")
    with translation.override("de-at"):
        assert template.render(Context({"a": -3.4, "b": 4.938, "c": 17.5})) == "−3 +4,94 +17,500"


@pytest.mark.parametrize(("value", "de", "en"), [
    # The game page showed "1,7378988610873098 / -0,38497759581048": no sign, ASCII hyphen.
    (1.7378988610873098, "+1,7", "+1.7"),
    (-0.38497759581048, "−0,4", "−0.4"),
    (0.04, "±0,0", "±0.0"),
    (-7.25, "−7,3", "−7.3"),  # half away from zero, as the rules round
    (None, "", ""),
])
def test_a_change_not_yet_rounded_has_one_decimal(value, de, en):
    template = Template("{% load numbers %}{{ v|game_change }}")
    with translation.override("de-at"):
        assert template.render(Context({"v": value})) == de
    with translation.override("en"):
        assert template.render(Context({"v": value})) == en


def test_identifiers_are_never_grouped():
    template = Template("{% load numbers %}{{ fide|plain }}|{{ none|plain }}|{{ rating|rating }}")
    for language in ("de-at", "en"):
        with translation.override(language):
            rendered = template.render(Context({"fide": 1600238, "none": None, "rating": 1762}))
            assert rendered == "1600238||1762"


@pytest.mark.parametrize(("value", "number", "text"), [
    (1835.0, 1835, "1835"),
    (1835, 1835, "1835"),
    (2109.3064, 2109.306, "2109.306"),  # an EGF rating keeps three decimals
    (-3.0, -3, None),
    (None, None, "—"),
])
def test_rating_value_is_the_number_rating_text_shows(value, number, text):
    from clubrating.core.formatting import rating_text, rating_value

    assert rating_value(value) == number
    assert type(rating_value(value)) is type(number)
    if text is not None:
        with translation.override("en"):
            assert rating_text(value) == text
