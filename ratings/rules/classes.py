"""Chess classes and Go grades (docs/rules.md §5: encyclopedia article "Elo-Zahl", EGF/Elo comparison).

Labels are English msgids marked with ``gettext_noop`` so that ``makemessages`` collects
them; the Django side translates them with ``gettext(label)``. No Django import here.
"""

from __future__ import annotations

import math

__all__ = ["CHESS_CLASSES", "chess_class", "chess_class_label", "go_grade"]


def gettext_noop(message: str) -> str:
    return message


# (lower bound, code, label), highest first (encyclopedia article "Elo-Zahl").
CHESS_CLASSES = (
    (2600, "WC", gettext_noop("World championship level")),
    (2400, "GM", gettext_noop("Grandmasters and international masters")),
    (2200, "NM", gettext_noop("National masters")),
    (2000, "CM", gettext_noop("Candidate masters / experts")),
    (1800, "A", gettext_noop("Class A")),
    (1600, "B", gettext_noop("Class B")),
    (1400, "C", gettext_noop("Class C")),
    (1200, "D", gettext_noop("Class D")),
    (1000, "H", gettext_noop("Below-average hobby players")),
    (-math.inf, "N", gettext_noop("Beginners")),
)
_LABELS = {code: label for _, code, label in CHESS_CLASSES}


def chess_class(rating: float) -> str:
    """Stable class code: WC, GM, NM, CM, A, B, C, D, H (hobby), N (beginner)."""
    for lower, code, _ in CHESS_CLASSES:
        if rating >= lower:
            return code
    raise AssertionError("unreachable")


def chess_class_label(code: str) -> str:
    return _LABELS[code]


def go_grade(gor: float) -> str:
    """GoR 2100 = 1 dan (+100 per dan), 2000 = 1 kyu (-100 per kyu, 100 = 20 kyu, at most
    30 kyu); above 2700 professional ("pro"). Codes: "1d", "20k", "pro".

    A grade covers its nominal GoR +-50, as the encyclopedia article's table shows (4k-1k = 1650-2049,
    1d-3d = 2050-2349, 17k-14k = 350-749)."""
    if gor > 2700:
        return "pro"
    if gor >= 2050:
        return f"{math.floor((gor - 2050) / 100) + 1}d"
    return f"{min(30, math.ceil((2050 - gor) / 100))}k"
