"""Sums per group that are ``math.fsum``'s to the bit, computed on arrays."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fsums"]


def fsums(groups, values, size: int, start=None):
    """``math.fsum`` per group, to the bit: for every group g < ``size`` the correctly rounded
    sum of ``start[g]`` (if given) and the ``values`` whose group is g.

    Every value is split into two whole multiples of powers of two, x = high / 2**s + low / 2**t;
    sums of such whole numbers are exact in float64 while they stay below 2**53, so the two
    exact totals need one rounding: their sum, which IEEE arithmetic rounds correctly. Values
    whose sizes lie too far apart for that are summed with ``math.fsum`` one group at a time."""
    if start is not None:
        groups = np.concatenate([np.arange(size), groups])
        values = np.concatenate([start, values])
    size_of = np.abs(values)
    nonzero = size_of[size_of > 0]
    if not nonzero.size:
        return np.zeros(size)
    if np.isfinite(nonzero).all() and len(values) < 2**20:
        lowest = int(np.frexp(nonzero.min())[1])  # every value is a multiple of 2**(lowest - 53)
        s = 21 - lowest  # |low| < 2**31, so up to 2**20 of them add exactly
        if s < 1000 and float(size_of.sum()) * 2.0**s < 2.0**51:
            high = np.round(values * 2.0**s)
            low = (values - high / 2.0**s) * 2.0 ** (53 - lowest)
            return (np.bincount(groups, weights=high, minlength=size) / 2.0**s
                    + np.bincount(groups, weights=low, minlength=size) / 2.0 ** (53 - lowest))
    by_group: list[list[float]] = [[] for _ in range(size)]
    for g, v in zip(groups.tolist(), values.tolist()):
        by_group[g].append(v)
    return np.array([math.fsum(v) for v in by_group])
