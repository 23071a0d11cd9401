"""A tournament's settings in a TRF file: the colour of player 1 in round 1, the pairing system and
the tie-breaks, as the records of "Format of Tournament Report File, Version 2026" (TRF-2026) and
JaVaFo's ``XXC`` line write them.

* ``XXC white1`` / ``XXC black1`` (JaVaFo, read by every pairing program) and TRF-2026 ``152 W`` /
  ``152 B``: the colour of player 1 in round 1.
* ``192``: the pairing system, e.g. ``FIDE_DUTCH_2025`` (the Dutch system approved in 2025 and
  applied from 1 February 2026) or ``FIDE_DUTCH`` (the Dutch system before it).
* ``202``: the tie-breaks in their order, comma-separated TRF-2026 codes, e.g. ``BH/C1,BH,SB``.

The reader keeps these lines as they are (``TrfTournament.extra_lines``), so that a file read and
written again is the same text; ``trf_settings`` reads their values from there, and
``settings_lines`` writes them. Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DUTCH", "DUTCH_2025", "TrfSettings", "settings_lines", "trf_settings"]

DUTCH_2025, DUTCH = "FIDE_DUTCH_2025", "FIDE_DUTCH"
_XXC = {"white1": "w", "black1": "b"}
_152 = {"W": "w", "B": "b"}


@dataclass(frozen=True)
class TrfSettings:
    initial_colour: str = ""  # "w", "b" or "" (not given)
    pairing_system: str = ""  # the 192 value, e.g. "FIDE_DUTCH_2025"
    tiebreaks: str = ""  # the 202 value, e.g. "BH/C1,BH,SB"


def trf_settings(extra_lines: list[str]) -> TrfSettings:
    """The settings the lines of a file give (the first of each; XXC before 152)."""
    colour = pairing = tiebreaks = ""
    for line in extra_lines:
        code, value = line[:3], line[4:].strip()
        if code == "XXC" and not colour:
            colour = next((_XXC[word] for word in value.split() if word in _XXC), "")
        elif code == "152" and not colour:
            colour = _152.get(value.upper(), "")
        elif code == "192" and not pairing:
            pairing = value.upper()
        elif code == "202" and not tiebreaks:
            tiebreaks = ",".join(part.strip().upper() for part in value.split(",") if part.strip())
    return TrfSettings(colour, pairing, tiebreaks)


def settings_lines(settings: TrfSettings) -> list[str]:
    """The lines of ``settings``, in the order the readers expect them (those not given left out).
    Both XXC and 152 are written: JaVaFo and older readers know only the first."""
    lines = []
    if settings.pairing_system:
        lines.append(f"192 {settings.pairing_system}")
    if settings.tiebreaks:
        lines.append(f"202 {settings.tiebreaks}")
    if settings.initial_colour in ("w", "b"):
        lines.append(f"152 {settings.initial_colour.upper()}")
        lines.append(f"XXC {'white1' if settings.initial_colour == 'w' else 'black1'}")
    return lines
