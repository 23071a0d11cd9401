"""Player names as chess files write them: "Last, First" (the White and Black tags of the PGN
standard, the name field of a TRF16 player line)."""

from __future__ import annotations

__all__ = ["split_name"]


def split_name(name: str) -> tuple[str, str]:
    """(last name, first name) from "Last, First"; a name without a comma is all last name."""
    if "," in name:
        last, first = name.split(",", 1)
        return " ".join(last.split()), " ".join(first.split())
    return " ".join(name.split()), ""
