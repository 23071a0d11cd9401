"""National rating records of a TRF file (TRF-2026): one line per player, tagged with the
federation's three-letter code instead of ``001``, holding that player's national rating and
national ID at the columns where the player line holds the FIDE rating and FIDE ID."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from ..limits import LENGTHS, START_RANK_MAX, FieldError, check_length, parse_rating, parse_whole

__all__ = ["NationalRating", "national_record", "national_ratings"]

_LINE = re.compile(r"^(?!XX)[A-Z]{3} [ 0-9]{3}[0-9]")
_DIGITS = re.compile(r"[0-9]*")


class _WithExtraLines(Protocol):
    """What ``national_ratings`` reads of a ``TrfTournament`` (the reader, which uses this module)."""

    extra_lines: list[str]


@dataclass(frozen=True)
class NationalRating:
    rating: int | None  # blank or 0: unrated
    national_id: str


def national_record(line: str) -> tuple[int, NationalRating] | None:
    """(start rank, record) of a national rating line, None for any other line; FieldError for
    a rating or ID out of range (the reader checks every line with it)."""
    if not _LINE.match(line):
        return None
    padded = line.ljust(79)
    rating = padded[48:52].strip()
    if not _DIGITS.fullmatch(rating):
        raise FieldError("not_number", field="national rating", value=rating)
    national_id = check_length(padded[57:68].strip(), "national ID", LENGTHS["national_id"])
    value = parse_rating(rating, "national rating")
    return parse_whole(padded[4:8], "start rank", 1, START_RANK_MAX), NationalRating(
        rating=int(value) if value else None, national_id=national_id,
    )


def national_ratings(tournament: _WithExtraLines) -> dict[int, NationalRating]:
    """Start rank -> the player's national record, from the lines the reader kept verbatim."""
    found: dict[int, NationalRating] = {}
    for line in tournament.extra_lines:
        record = national_record(line)
        if record is not None:
            found[record[0]] = record[1]
    return found
