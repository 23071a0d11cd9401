"""Ratings and rating changes as text: never digit-grouped, signed changes with a real minus."""

import pytest
from django.template import Context, Template
from django.utils import translation

from clubrating.core.formatting import change_text, rating_text


@pytest.mark.parametrize(("lang", "value", "expected"), [
    ("de-at", 1835.0, "1835"), ("en", 1835, "1835"), ("de-at", 2107.4, "2107,400"),
    ("en", 1234.567, "1234.567"), ("de-at", None, "—"),
])
def test_rating_text(lang, value, expected):
    with translation.override(lang):
        assert rating_text(value) == expected


@pytest.mark.parametrize(("value", "expected"), [(5.0, "+5"), (-14, "−14"), (0, "±0"), (None, "")])
def test_change_text(value, expected):
    assert change_text(value) == expected


def test_filters_in_templates():
    template = Template('{% load numbers %}{{ r|rating }} {{ c|rating_change }} {{ n|rating_change:"—" }}')
    with translation.override("de-at"):
        assert template.render(Context({"r": 12345.0, "c": -3.0, "n": None})) == "12345 −3 —"
