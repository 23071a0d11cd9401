"""Expected score E for every rule set (pure Python)."""

from __future__ import annotations

import math
from bisect import bisect_left

from ratings.rules.presets import Rules

__all__ = ["TABLE_BANDS", "egf_classic_a", "expected_score", "logistic", "polynomial", "table"]

# ÖSB rules, "Tabelle" (the classic FIDE table): upper edge of |D| for 0.50, 0.51, ... 0.99;
# above 735 the expectation is 1.00.
TABLE_BANDS = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153,
    162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344,
    357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)
POLYNOMIAL_LIMIT = 735  # docs/rules.md §1.1: beyond it E is 1.0 or 0.0
# DSB 1990 ELO list explanation (docs/rules.md §4): sigma = 200 sqrt 2, so
# Phi(D / sigma) = (1 + erf(D / (sigma sqrt 2))) / 2 = (1 + erf(D / 400)) / 2.
NORMAL_SCALE = 400.0


def polynomial(d: float) -> float:
    """Austrian national rating rules, official formula, symmetric around 0.5; 1/0 beyond |D| 735."""
    a = abs(d)
    if a > POLYNOMIAL_LIMIT:
        e = 1.0
    else:
        e = polynomial_terms(a)
    return e if d >= 0 else 1.0 - e


def polynomial_terms(a):
    """The polynomial for |D| = ``a``, a float or an array. The powers are products: IEEE
    multiplication gives the same bits on every processor and in arrays, where ``pow`` does not
    (NumPy's SIMD powers differ from the C library's in the last bit on some processors)."""
    a3 = a * a * a
    return 0.5 + 1.4217e-3 * a - 2.4336e-7 * a * a - 2.5140e-9 * a3 + 1.9910e-12 * (a3 * a)


def logistic(d: float) -> float:
    """FIDE Rating Regulations 8.1.2: the logistic curve with 400 points per factor of ten."""
    return 1.0 / (1.0 + 10.0 ** (-d / 400.0))


def table(d: float) -> float:
    """ÖSB rules, table; a non-integer |D| belongs to the band whose upper edge it does not exceed
    after rounding up (3.5 is in 4-10)."""
    a = math.ceil(abs(d) - 1e-9)
    hundredths = bisect_left(TABLE_BANDS, a)  # 0 ... 50 above 0.50; division keeps 0.68 exact
    return (50 + hundredths) / 100 if d >= 0 else (50 - hundredths) / 100


def egf_classic_a(rating: float) -> float:
    """EGF/Elo comparison: a = 205 - R/20 (200 at GoR 100 ... 70 at 2700), held at the ends."""
    return 205 - min(max(rating, 100.0), 2700.0) / 20


def _egf_classic(rules: Rules, own: float, opponent: float) -> float:
    # EGF/Elo comparison: the formula is written for the lower-rated player A.
    if own <= opponent:
        a = egf_classic_a(own)
        return 1.0 / (math.exp((opponent - own) / a) + 1.0) - rules.egf_epsilon / 2
    lower = 1.0 / (math.exp((own - opponent) / egf_classic_a(opponent)) + 1.0) - rules.egf_epsilon / 2
    return 1.0 - lower - rules.egf_epsilon


def _beta(r: float) -> float:
    return -7.0 * math.log(3300.0 - r)


def expected_score(rules: Rules, own: float, opponent: float) -> float:
    """Expected score of ``own`` against ``opponent`` under ``rules``."""
    method = rules.expectation
    if method == "egf-classic":
        return _egf_classic(rules, own, opponent)
    if method == "egf-2021":
        return 1.0 / (1.0 + math.exp(_beta(opponent) - _beta(own)))
    d = own - opponent
    if rules.difference_cap is not None and not (
        rules.full_difference_from is not None and own >= rules.full_difference_from
    ):
        d = max(-rules.difference_cap, min(rules.difference_cap, d))
    if method == "polynomial":
        return polynomial(d)
    if method == "table":
        return table(d)
    if method == "logistic":
        return logistic(d)
    # "normal" (DSB 1990 ELO list explanation, dsb-1990): Phi(D / (200 sqrt 2)).
    return 0.5 * (1.0 + math.erf(d / NORMAL_SCALE))
