"""Rounding half away from zero (never Python's banker's ``round``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

__all__ = ["round_half_away"]

_NINE = Decimal("1e-9")
_STEPS = {places: Decimal(1).scaleb(-places) for places in range(10)}
# A float with up to three decimals kept, whose scaled value lies this far from a half, rounds
# the same way in float arithmetic as in the decimal arithmetic below: its error (the cut to nine
# decimals, at most 5e-7 once scaled; the float's own, below 1e-7 under ``_FAST_BELOW``) cannot
# carry it across the half. Nearer a half the decimal arithmetic decides.
_FAST_SCALES = {0: 1.0, 1: 10.0, 2: 100.0, 3: 1000.0}
_FAST_BELOW = 1e8
_FAST_MARGIN = 2e-6


def round_half_away(value: float, decimals: int = 0) -> float | int:
    """Round half away from zero; ``decimals=0`` gives an int.

    Sums of per-game float changes carry binary noise (2.4999999999997 for an exact 2.5),
    so the value is first cut to 9 decimals, far below any rating precision, and then
    rounded in decimal arithmetic. Decimal's ROUND_HALF_UP is "half away from zero".
    """
    if type(value) is float:
        if value.is_integer():
            # A whole number (most ratings and changes a period's closing rounds: 40,000 of them
            # at a federation's size) is its own rounding; the decimal arithmetic would give the same.
            return int(value) if decimals == 0 else value
        scale = _FAST_SCALES.get(decimals)
        if scale is not None:
            # Far from a half the result is plain: the long tables round thousands of values
            # (a 300-player evaluation), each costing several microseconds in decimal arithmetic.
            scaled = abs(value) * scale
            if scaled < _FAST_BELOW:
                whole = int(scaled)
                fraction = scaled - whole
                if abs(fraction - 0.5) > _FAST_MARGIN:
                    if fraction > 0.5:
                        whole += 1
                    if decimals == 0:
                        return whole if value > 0 else -whole
                    # Both exact in binary, so the quotient is the float nearest the decimal result.
                    result = whole / scale
                    return result if value > 0 else -result
    return _round_decimal(value, decimals)


def _round_decimal(value: float, decimals: int) -> float | int:
    """``round_half_away`` in decimal arithmetic: the rule itself."""
    exact = Decimal(repr(value)).quantize(_NINE, rounding=ROUND_HALF_UP)
    step = _STEPS.get(decimals)
    if step is None:
        step = Decimal(1).scaleb(-decimals)
    rounded = exact.quantize(step, rounding=ROUND_HALF_UP)
    return int(rounded) if decimals == 0 else float(rounded)
