from django.utils import translation

from clubrating.tournaments.templatetags.tiebreaks import decimals_for, tiebreak_cells


def test_each_tiebreak_gets_the_decimals_of_its_kind():
    assert [decimals_for(c) for c in ("BH/C1", "BH", "SB", "DE", "WIN", "ARO/C1", "TPR", "KS")] == [
        1,
        1,
        2,
        0,
        0,
        0,
        0,
        1,
    ]


def test_cells_are_localised_and_aligned_with_the_codes():
    codes = ["BH/C1", "SB", "ARO", "DE"]
    with translation.override("de-at"):
        assert tiebreak_cells([10.5, 9.25, 1834.4, None], codes) == ["10,5", "9,25", "1834", "–"]
    with translation.override("en"):
        assert tiebreak_cells([10.5, 9.25, 1834.6, 1.0], codes) == ["10.5", "9.25", "1835", "1"]
