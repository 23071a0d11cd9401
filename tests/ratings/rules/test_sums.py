"""fsums: math.fsum per group, to the bit."""

import math
import random

import numpy as np

from ratings.rules.sums import fsums


def test_fsums_are_math_fsum_to_the_bit():
    rng = random.Random(5)
    for trial in range(200):
        size, n = rng.randint(1, 12), rng.randint(0, 80)
        spread = (lambda: rng.uniform(800, 2900), lambda: rng.random(),  # ratings, expectations
                  lambda: rng.uniform(-1, 1) * 10 ** rng.uniform(-9, 5),
                  lambda: rng.choice((1e-300, 1e300, 0.1, -0.3, 0.0)))[trial % 4]  # the last: math.fsum
        values = [spread() for _ in range(n)]
        groups = [rng.randrange(size) for _ in range(n)]
        start = [rng.uniform(0, 40000) for _ in range(size)] if trial % 3 == 0 else None
        got = fsums(np.array(groups, np.int64), np.array(values), size,
                    None if start is None else np.array(start)).tolist()
        assert got == [
            math.fsum(([start[g]] if start else []) + [v for v, h in zip(values, groups) if h == g])
            for g in range(size)
        ], trial


def test_empty_groups_sum_to_zero():
    assert fsums(np.zeros(0, np.int64), np.zeros(0), 3).tolist() == [0.0, 0.0, 0.0]
    assert fsums(np.array([1]), np.array([0.0]), 2, start=np.array([2.5, 0.0])).tolist() == [2.5, 0.0]
