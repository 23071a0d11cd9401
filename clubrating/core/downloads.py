"""The names of downloaded files (exports, PDFs) and their ``Content-Disposition``.

A name is made of readable parts in the page's language, joined by "_":
"Wertungsliste_ÖSB_Standard_2026-07-01.xlsx", "Herbstturnier_Paarungen_Runde_1.pdf"; English pages
give "Rating_list_ÖSB_Standard_2026-07-01.xlsx". Dates are ISO (the files sort by date). The header
carries the name twice (RFC 6266): as UTF-8 in ``filename*``, which every current browser uses, and
transliterated to ASCII in ``filename`` for older clients ("Wertungsliste_OESB_Standard_…":
German umlauts as Ae/Oe/Ue and ss, other accents dropped).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

_UMLAUTS = {"Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "ẞ": "SS"}
# Characters no file system or header takes well; runs of them (and of spaces) become one "_".
_UNSAFE = re.compile(r'[\s\\/:*?"<>|\x00-\x1f\x7f;,]+')


def download_stem(*parts: object) -> str:
    """The parts (translated words, names, dates) as one file name without its extension; empty
    parts are left out."""
    words = [_UNSAFE.sub("_", str(part)).strip("_.") for part in parts]
    return "_".join(word for word in words if word) or "download"


def download_name(*parts: object, extension: str) -> str:
    return f"{download_stem(*parts)}.{extension}"


def _transliterate(text: str) -> str:
    out = []
    for index, char in enumerate(text):
        replacement = _UMLAUTS.get(char)
        if replacement and char.isupper() and len(replacement) == 2:
            following = text[index + 1:index + 2]
            if following.isupper():  # "ÖSB" -> "OESB", "Österreich" -> "Oesterreich"
                replacement = replacement.upper()
        out.append(replacement or char)
    return "".join(out)


def safe_filename(name: str) -> str:
    """An ASCII file name ("Schnellschach Ü18.pdf" -> "Schnellschach_Ue18.pdf")."""
    ascii_name = unicodedata.normalize("NFKD", _transliterate(name)).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_name).strip("_") or "download"


def attachment(name: str) -> str:
    """The ``Content-Disposition`` value offering ``name`` for download."""
    fallback = safe_filename(name)
    header = f'attachment; filename="{fallback}"'
    if fallback != name:
        header += f"; filename*=UTF-8''{quote(name, safe='')}"
    return header
