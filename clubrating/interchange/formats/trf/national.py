"""National rating records of a TRF file (TRF-2026): one line per player, tagged with the
federation's three-letter code instead of ``001``, holding that player's national rating and
national ID at the columns where the player line holds the FIDE rating and FIDE ID."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .reader import TrfTournament

__all__ = ["NationalRating", "national_ratings"]

_LINE = re.compile(r"^(?!XX)[A-Z]{3} [ \d]{3}\d")


@dataclass(frozen=True)
class NationalRating:
    rating: int | None  # blank or 0: unrated
    national_id: str


def national_ratings(tournament: TrfTournament) -> dict[int, NationalRating]:
    """Start rank -> the player's national record, from the lines the reader kept verbatim."""
    found: dict[int, NationalRating] = {}
    for line in tournament.extra_lines:
        if _LINE.match(line):
            padded = line.ljust(79)
            rating = padded[48:52].strip()
            found[int(padded[4:8])] = NationalRating(
                rating=int(rating) or None if rating.isdigit() else None,
                national_id=padded[57:68].strip(),
            )
    return found
