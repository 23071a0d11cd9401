"""Accelerations (virtual points for the pairing) in a TRF file, as "Format of Tournament Report
File, Version 2026" (TRF-2026) writes them, and JaVaFo's older per-player line.

* TRF-2026 ``250``: one line per block of players and rounds with the same virtual points::

      250 MMMM GGGG RRR RRR PPPP PPPP
      250       1.0   1   3    1   82

  columns 5–8 match points (empty in an individual tournament), 10–13 game points, 15–17 the first
  and 19–21 the last round, 23–26 the first and 28–31 the last player (start numbers).
* JaVaFo's ``XXA NNNN  p.p  p.p ...``: one line per player, the virtual points of rounds 1, 2, …

Both are read (the later line wins for a player and round); ``250`` is written. Pure: no Django.
"""

from __future__ import annotations

__all__ = ["acceleration_lines", "read_accelerations"]

Accelerations = dict[int, dict[int, float]]  # start number -> round -> virtual points


def _number(text: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _read_250(line: str, result: Accelerations) -> None:
    line = line.ljust(31)
    points = _number(line[9:13])
    try:
        first_round, last_round = int(line[14:17]), int(line[18:21])
        first, last = int(line[22:26]), int(line[27:31])
    except ValueError:
        return
    if not points or first_round > last_round or first > last:
        return
    for player in range(first, last + 1):
        for rnd in range(first_round, last_round + 1):
            result.setdefault(player, {})[rnd] = points


def _read_xxa(line: str, result: Accelerations) -> None:
    try:
        player = int(line[4:8])
    except ValueError:
        return
    for index, start in enumerate(range(9, len(line.rstrip()), 5), start=1):
        points = _number(line[start : start + 4])
        if points:
            result.setdefault(player, {})[index] = points


def read_accelerations(extra_lines: list[str]) -> Accelerations:
    """The virtual points the ``250`` and ``XXA`` lines of a file give (none: an empty dict)."""
    result: Accelerations = {}
    for line in extra_lines:
        if line.startswith("250"):
            _read_250(line, result)
        elif line.startswith("XXA"):
            _read_xxa(line, result)
    return result


def acceleration_lines(accelerations: Accelerations) -> list[str]:
    """``250`` lines for ``accelerations``: runs of consecutive start numbers whose virtual points
    agree in every round, and within each run runs of consecutive rounds with the same points."""
    lines = []
    players = sorted(p for p, rounds in accelerations.items() if any(rounds.values()))
    runs: list[list[int]] = []
    for player in players:
        if runs and runs[-1][-1] == player - 1 and accelerations[runs[-1][-1]] == accelerations[player]:
            runs[-1].append(player)
        else:
            runs.append([player])
    for run in runs:
        rounds = sorted((r, p) for r, p in accelerations[run[0]].items() if p)
        blocks: list[list[tuple[int, float]]] = []
        for rnd, points in rounds:
            if blocks and blocks[-1][-1][0] == rnd - 1 and blocks[-1][-1][1] == points:
                blocks[-1].append((rnd, points))
            else:
                blocks.append([(rnd, points)])
        for block in blocks:
            lines.append(
                f"250 {'':4} {block[0][1]:4.1f} {block[0][0]:3d} {block[-1][0]:3d} {run[0]:4d} {run[-1]:4d}"
            )
    return lines
