"""The long tables' texts: the formatting's own (tests/core/test_formatting.py holds the formats),
each distinct value formatted once, and cells escaped."""

from django.utils import translation

from clubrating.tournaments.views._texts import Texts


def test_a_remembered_text_is_the_one_of_its_value():
    with translation.override("de-at"):
        texts = Texts()
        # Equal keys in a dict, different texts: 0.0 and −0.0, a value and None, the same value
        # with other decimals or in another format.
        assert [texts.decimal(v, 1) for v in (0.0, -0.0, 0, None, "", 0.0, -0.0)] == [
            "0,0", "−0,0", "0,0", "", "", "0,0", "−0,0"]
        assert [texts.decimal(2.5, places) for places in (0, 1, 2)] == ["3", "2,5", "2,50"]
        assert [texts.signed(v, 1) for v in (-14.25, 0.04, -0.0, None)] == ["−14,3", "±0,0", "±0,0", ""]
        assert [texts.signed(17.5, places) for places in (-3, 0, 2)] == ["+17,500", "+18", "+17,50"]
        assert [texts.points(v) for v in (4.5, 4, None)] == ["4,5", "4,0", ""]
        assert [texts.game_change(v) for v in (1.7378988610873098, -0.38497759581048, 0, None)] == [
            "+1,7", "−0,4", "±0,0", ""]
        assert [texts.rating(v) for v in (1835.0, 2109.3064, None)] == ["1835", "2109,306", "—"]
        assert texts.rating(None, "") == ""
        assert texts.tiebreaks([None, 12.5, 7], ["BH", "BH", "WIN"]) == ["–", "12,5", "7"]
    with translation.override("en"):
        texts = Texts()
        assert [texts.decimal(2.5, 2), texts.signed(0.04, 1), texts.points(4.5)] == ["2.50", "±0.0", "4.5"]


def test_cells_are_escaped():
    texts = Texts()
    assert texts.cells(["3,5", "<b>"], "num") == '<td class="num">3,5</td><td class="num">&lt;b&gt;</td>'
    assert texts.escaped("A & B") == "A &amp; B"
