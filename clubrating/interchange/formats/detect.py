"""Which format a text is in, told by its content (never by a file name)."""

from __future__ import annotations

import re

__all__ = ["CSV", "TRF", "sniff_format"]

CSV = "csv"
TRF = "trf"

# A TRF16 line starts with a three-digit tag (012, 001, ...) or a program's XX tag, then a blank.
_TRF_LINE = re.compile(r"^(\d{3}|XX[A-Z])( |$)")


def sniff_format(text: str) -> str:
    """``TRF`` when the first non-blank line is a TRF16 line, else ``CSV``."""
    for line in text.lstrip("\ufeff").splitlines():
        if line.strip():
            return TRF if _TRF_LINE.match(line) else CSV
    return CSV
