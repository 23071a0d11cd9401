"""Bytes of an uploaded or local file -> text, the same way for every format."""

from __future__ import annotations

from pathlib import Path

__all__ = ["ENCODINGS", "decode_text", "read_text"]

# UTF-8 (a byte order mark is dropped), then Windows-1252 as older Swiss-Manager and Excel
# files are written, then Latin-1, which reads any byte sequence: the parsers decide whether
# the content makes sense.
ENCODINGS = ("utf-8-sig", "cp1252", "latin-1")


def decode_text(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with its byte order mark (Excel)
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    for encoding in ENCODINGS[:-1]:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode(ENCODINGS[-1])


def read_text(path: str | Path) -> str:
    """The decoded text of a file; OSError when it cannot be read."""
    return decode_text(Path(path).read_bytes())
