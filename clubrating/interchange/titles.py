"""Titles as TRF and PGN files spell them -> the member's title."""

from __future__ import annotations

from clubrating.clubs.models import Title

# Old TRF files and some programs use one-letter titles (g = GM, m = IM, f = FM ...).
_TITLE_CODES = {
    "g": Title.GM, "m": Title.IM, "f": Title.FM, "c": Title.CM,
    "wg": Title.WGM, "wm": Title.WIM, "wf": Title.WFM, "wc": Title.WCM,
}


def title_code(text: str) -> str:
    """A Member title from TRF/PGN spellings; unknown titles (e.g. AGM) give ""."""
    text = (text or "").strip()
    if text.upper() in Title.values:
        return text.upper()
    return _TITLE_CODES.get(text.lower(), "")
