"""Rounding half away from zero (never Python's banker's ``round``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["round_half_away"]


def round_half_away(value: float, decimals: int = 0) -> float | int:
    """Round half away from zero; ``decimals=0`` gives an int.

    Sums of per-game float changes carry binary noise (2.4999999999997 for an exact 2.5),
    so the value is first cut to 9 decimals, far below any rating precision, and then
    rounded in decimal arithmetic. Decimal's ROUND_HALF_UP is "half away from zero".
    """
    if type(value) is float and value.is_integer():
        # A whole number (most ratings and changes a period's closing rounds: 40,000 of them at
        # a federation's size) is its own rounding; the decimal arithmetic would give the same.
        return int(value) if decimals == 0 else value
    exact = Decimal(repr(value)).quantize(Decimal("1e-9"), rounding=ROUND_HALF_UP)
    rounded = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return int(rounded) if decimals == 0 else float(rounded)
