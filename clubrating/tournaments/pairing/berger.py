"""FIDE Berger tables (Handbook C.05, Annex 1) for single and double round robins.

Players are numbered 1..n by starting rank. With an odd number of players a dummy n+1 completes the
table; whoever meets it has the bye that round. Construction (reproduces FIDE's tables): with
m = n - 1 (n even), in round r the player p with 2p ≡ r + 1 (mod m) meets player n, and the other
boards are (p + k, p - k) mod m for k = 1 .. n/2 - 1, the first-named player taking white. Player n
has black in odd rounds, white in even rounds, and always plays on board 1.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BergerGame:
    """A board of a round. ``black`` is None when ``white`` has the bye (odd number of players)."""

    board: int
    white: int
    black: int | None


def _residue(value: int, modulus: int) -> int:
    """``value`` mod ``modulus`` in 1..modulus (player numbers, not 0..modulus-1)."""
    return (value - 1) % modulus + 1


def berger_round(players: int, round_number: int) -> list[BergerGame]:
    """Round ``round_number`` (1-based, single cycle) of the Berger table for ``players`` players."""
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    n = players + players % 2
    m = n - 1
    if not 1 <= round_number <= m:
        raise ValueError(f"round must be between 1 and {m}")
    p = next(a for a in range(1, n) if (2 * a - (round_number + 1)) % m == 0)
    pairs = [(n, p) if round_number % 2 == 0 else (p, n)]
    pairs += [(_residue(p + k, m), _residue(p - k, m)) for k in range(1, n // 2)]
    games = []
    for board, (white, black) in enumerate(pairs, start=1):
        if n != players and n in (white, black):
            # The dummy's opponent has the bye; it is listed on its board with no black player.
            games.append(BergerGame(board, black if white == n else white, None))
        else:
            games.append(BergerGame(board, white, black))
    return games


def berger_schedule(players: int, *, double: bool = False) -> list[list[BergerGame]]:
    """All rounds. A double round robin repeats the cycle with colours reversed; as FIDE recommends
    (C.05 Annex 1), the last two rounds of the first cycle swap places so that nobody gets the
    same colour three times in a row at the turn of the cycles."""
    n = players + players % 2
    first = [berger_round(players, r) for r in range(1, n)]
    if not double:
        return first
    if len(first) >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    second = [
        [BergerGame(g.board, g.black, g.white) if g.black is not None else g for g in rnd] for rnd in first
    ]
    return first + second


def rounds_count(players: int, *, double: bool = False) -> int:
    n = players + players % 2
    return (n - 1) * (2 if double else 1)
