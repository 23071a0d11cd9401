from django.utils import translation

from clubrating.tournaments.templatetags.tiebreaks import tiebreak_cells
from clubrating.tournaments.tiebreaks import decimals_for


def test_each_tiebreak_gets_the_decimals_of_its_kind():
    # DE is the points scored among the tied players (FIDE Tie-Break Regulations, art. 6): half
    # points, not a count; shown whole, a draw between two tied players read "1".
    codes = ("BH/C1", "BH", "SB", "DE", "WIN", "ARO/C1", "TPR", "KS")
    assert [decimals_for(c) for c in codes] == [1, 1, 2, 1, 0, 0, 0, 1]


def test_cells_are_localised_and_aligned_with_the_codes():
    codes = ["BH/C1", "SB", "ARO", "DE"]
    with translation.override("de-at"):
        assert tiebreak_cells([10.5, 9.25, 1834.4, None], codes) == ["10,5", "9,25", "1834", "–"]
        assert tiebreak_cells([10.5, 9.25, 1834.4, 0.5], codes) == ["10,5", "9,25", "1834", "0,5"]
    with translation.override("en"):
        assert tiebreak_cells([10.5, 9.25, 1834.6, 1.0], codes) == ["10.5", "9.25", "1835", "1.0"]
