"""Game results as people and exports write them, read into a score (1, 0.5 or 0).

FIDE's rating calculations and most exports write ``1.00``, ``0.50``, ``0.00``; German texts
write ``1,0`` and ``0,5``; pairing programs write ``1-0``, ``½-½``, ``0-1``; TRF uses ``+``/``-``
and ``=``. Anything that is not one of the three scores is refused.
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["UnreadableResult", "parse_score"]

_WORDS = {
    "+": 1.0, "1-0": 1.0,
    "½": 0.5, "1/2": 0.5, "=": 0.5, "½-½": 0.5, "1/2-1/2": 0.5,
    "-": 0.0, "0-1": 0.0,
}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?|[.,]\d+")
_SCORES = {Decimal(1): 1.0, Decimal("0.5"): 0.5, Decimal(0): 0.0}


class UnreadableResult(ValueError):
    def __init__(self, text: str):
        self.text = text
        super().__init__(f"{text!r} is not a result (1, 0.5 or 0)")


def parse_score(text: str) -> float:
    """The score of ``text``: ``1``, ``1.00``, ``1,0``, ``1-0``, ``+`` -> 1.0; ``0.5``, ``0,50``,
    ``½``, ``1/2``, ``=`` -> 0.5; ``0``, ``0.00``, ``0-1``, ``-`` -> 0.0."""
    cleaned = text.strip().replace(" ", "")
    if cleaned in _WORDS:
        return _WORDS[cleaned]
    if _NUMBER.fullmatch(cleaned):
        score = _SCORES.get(Decimal(cleaned.replace(",", ".")))
        if score is not None:
            return score
    raise UnreadableResult(text)
