"""The editions of FIDE's Dutch system (C.04.3, with C.04.1 and C.04.2) and the day the 2026
edition took effect: written once, read by the tournament model (the edition a tournament keeps)
and by the TRF pairing (the edition a file is paired by)."""

from __future__ import annotations

from datetime import date

EDITION_2017 = "dutch_2017"  # C.04.3 effective till 31 January 2026
EDITION_2026 = "dutch_2026"  # C.04.3 effective from 1 February 2026

# The first day of the Dutch system of 2026 (C.04.3, with C.04.1 and C.04.2 of 2026).
EDITION_2026_START = date(2026, 2, 1)


def edition_for_start(start: date | None) -> str:
    """The edition of the Dutch system a tournament starting on ``start`` is paired by."""
    return EDITION_2017 if start is not None and start < EDITION_2026_START else EDITION_2026
