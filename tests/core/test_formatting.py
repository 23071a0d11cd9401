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
    template = Template("{% load formatting %}{{ a|signed }} {{ b|signed:2 }} {{ c|signed:-3 }}")
    with translation.override("de-at"):
        assert template.render(Context({"a": -3.4, "b": 4.938, "c": 17.5})) == "−3 +4,94 +17,500"
