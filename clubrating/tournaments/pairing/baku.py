"""Baku acceleration (FIDE Handbook C.04.5.1, "Baku Acceleration"): virtual points for the upper
half of a large open in its first rounds, so that the strongest players meet each other sooner.

The rule as followed (docs/rules.md, "Baku acceleration"):

* Before round 1 the start list is split: group A holds the first half of the players, rounded up
  to the nearest even number (2 × ⌈N / 4⌉ players); group B the rest.
* Late entries take their place in the start list by the initial order; the last player of group A
  stays the same, so a late entry placed above him joins group A.
* The accelerated rounds are the first half of the rounds, rounded up. Before pairing the first half
  (rounded up) of them, every player of group A has 1 virtual point; before the remaining ones ½.
  Nobody has virtual points after the last accelerated round, and group B never has any.
* Virtual points count for the pairing only, never for the standings.

Pure: no Django; the players are their start ranks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["baku_acceleration", "baku_group_a_size", "baku_virtual_points"]


def baku_group_a_size(players: int) -> int:
    """Players in group A for a start list of ``players``: the first half rounded up to even."""
    return 2 * math.ceil(players / 4)


def baku_virtual_points(rounds: int, round_number: int) -> float:
    """Virtual points of a group-A player before pairing ``round_number`` of ``rounds``."""
    accelerated = math.ceil(rounds / 2)
    full = math.ceil(accelerated / 2)
    if round_number <= full:
        return 1.0
    if round_number <= accelerated:
        return 0.5
    return 0.0


def baku_acceleration(*, group_a: Iterable[int], rounds: int) -> dict[int, dict[int, float]]:
    """Virtual points per player and round (``{start rank: {round: points}}``) for the players of
    ``group_a``; rounds without virtual points are left out."""
    per_round = {r: baku_virtual_points(rounds, r) for r in range(1, rounds + 1)}
    per_round = {r: points for r, points in per_round.items() if points}
    return {rank: dict(per_round) for rank in group_a}
