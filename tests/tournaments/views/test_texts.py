"""The long tables' number texts equal the project's formatting functions, value for value."""

import random

import pytest
from django.utils import translation

from clubrating.core.formatting import decimal_text, game_change_text, points_text, signed
from clubrating.tournaments.views._texts import Texts

VALUES = [None, 0, 0.0, -0.0, 0.5, -0.5, 1, 2.5, 0.004, 0.005, -0.005, 0.015, 2.675, 1.0049999, 17.45,
          -15.35, 123.456, 2109.3064, -0.04, 0.05, 9.995, 1e-7, -1e-7, 12345678.9]


@pytest.mark.parametrize("language", ["de-at", "en"])
def test_texts_equal_the_formatting_functions(language):
    rng = random.Random(7)
    values = VALUES + [rng.uniform(-50, 50) for _ in range(3000)]
    values += [rng.randint(-40, 40) / 4 for _ in range(200)]
    with translation.override(language):
        texts = Texts()
        for value in values:
            for places in (0, 1, 2, 3):
                assert texts.decimal(value, places) == decimal_text(value, places), (value, places)
                assert texts.signed(value, places) == signed(value, places), (value, places)
            assert texts.signed(value, -3) == signed(value, -3), value
            assert texts.points(value) == points_text(value), value
            assert texts.game_change(value) == game_change_text(value), value
    with translation.override("de-at"):
        assert Texts().signed(-14.25, 1) == "\u221214,3"
        assert Texts().decimal(2.5, 2) == "2,50"
    with translation.override("en"):
        assert Texts().signed(0.04, 1) == "±0.0"
