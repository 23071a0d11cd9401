"""A period's games as columns: one array per field instead of one tuple per game.

A federation's period has a few hundred thousand games. Turning that many Python tuples into
arrays costs more than the whole vectorised evaluation, so callers that hold their games as rows
of numbers (the stored side records of a pool) hand over columns, and each field is read once.

``GameColumns`` holds what ``GameIn`` holds, game by game in the same order; ``to_games`` gives
the tuples back (for the readable reference and for the per-game details asked for later).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

import numpy as np

from ratings.rules.period import GameIn

__all__ = ["GameColumns", "columns_from_games", "games_from_sides"]


class GameColumns(NamedTuple):
    """The fields of ``GameIn``, one sequence (usually a NumPy array) each, games in order."""

    key: Sequence[Hashable]
    white: Sequence[Hashable]
    black: Sequence[Hashable]
    score: Sequence[float]  # white's score: 1, 0.5 or 0
    # Per game the one side a carried game still counts for, None where it counts for both;
    # None instead of a sequence: every game counts for both sides.
    only_for: Sequence[Hashable | None] | None = None

    def to_games(self) -> list[GameIn]:
        only = self.only_for if self.only_for is not None else [None] * len(self.key)
        return list(map(GameIn, *(_plain(c) for c in (self.key, self.white, self.black, self.score, only))))

    def player_keys(self) -> list:
        """Every player of the games, once each (sorted where the keys are whole numbers)."""
        if all(isinstance(c, np.ndarray) and c.dtype.kind in "iu" for c in (self.white, self.black)):
            both = np.concatenate([self.white, self.black])
            if not both.size:
                return []
            low, high = int(both.min()), int(both.max())
            if high - low > 4 * len(both) + 1024:  # sparse ids
                return np.unique(both).tolist()
            seen = np.zeros(high - low + 1, bool)
            seen[both - low] = True
            return (np.flatnonzero(seen) + low).tolist()
        return list(dict.fromkeys(chain(_plain(self.white), _plain(self.black))))

    def at(self, indices: Iterable[int]) -> list[GameIn]:
        """The games at ``indices`` (positions in the period) as ``GameIn``."""
        indices = list(indices)
        fields = [_take(c, indices) for c in (self.key, self.white, self.black, self.score)]
        only = [None] * len(indices) if self.only_for is None else _take(self.only_for, indices)
        return list(map(GameIn, *fields, only))


def _plain(column) -> list:
    """A column as a list of Python values (NumPy scalars compare and hash like them, but a
    result that goes into the database or a template should hold plain ints and floats)."""
    return column.tolist() if isinstance(column, np.ndarray) else list(column)


def _take(column, indices) -> list:
    """The values of ``column`` at ``indices`` (a list or an array), as plain Python values."""
    if isinstance(column, np.ndarray):
        return column[np.asarray(indices, np.int64)].tolist()
    return [column[i] for i in (indices.tolist() if isinstance(indices, np.ndarray) else indices)]


def columns_from_games(games: Iterable[GameIn]) -> GameColumns:
    """``GameIn`` tuples as columns. Whole-number keys and scores become arrays; other keys
    (strings, tuples) stay lists, and a score that is no number stays what it is (the
    evaluation refuses it by name)."""
    games = games if isinstance(games, list) else list(games)
    columns = [list(map(itemgetter(i), games)) for i in range(4)]
    only = list(map(itemgetter(4), games))
    if only.count(None) == len(only):
        only = None
    key, white, black, score = (_array(c) for c in columns)
    return GameColumns(key, white, black, score, only)


def _array(values: list):
    """An array when every value is a whole number (or, for scores, a number), else the list."""
    if not values:
        return np.zeros(0, np.int64)
    try:
        array = np.array(values)
    except (OverflowError, ValueError):
        return values
    return array if array.ndim == 1 and array.dtype.kind in "iufb" else values


def games_from_sides(sides: Sequence[Sequence], fields: Sequence[int]) -> GameColumns:
    """The games of stored ``sides`` (one per player and game; ``fields`` are the positions of
    game id, member id, opponent id, white, own score and solo in each): one game per game id,
    in the order in which its first side comes. A game's first side gives its colours and
    score, unless a side is solo (carried for that player only: the other player was rated in
    an earlier period); then the last solo side does, and the game counts for its member only.
    The game ids are read from every side, the other fields from the side chosen per game
    (the sides' values are Python objects: reading them is most of the work)."""
    count = len(sides)
    if count == 0:
        empty = np.zeros(0, np.int64)
        return GameColumns(empty, empty, empty, np.zeros(0), None)
    f_game, f_member, f_opponent, f_white, f_score, f_solo = fields
    game = np.fromiter(map(itemgetter(f_game), sides), np.int64, count)
    position = np.arange(count)
    slot, slots = _slots(game)
    first = np.full(slots, count)
    np.minimum.at(first, slot, position)  # each game's first side
    chosen, solo = first, None
    if any(map(itemgetter(f_solo), sides)):  # the game's last solo side, if it has one
        solo = np.fromiter(map(itemgetter(f_solo), sides), bool, count)
        solo_at = np.flatnonzero(solo)
        last_solo = np.full(slots, -1)
        np.maximum.at(last_solo, slot[solo_at], solo_at)
        chosen = np.where(last_solo >= 0, last_solo, first)
    firsts = np.flatnonzero(first[slot] == position)  # one side per game, in order of coming
    rows = chosen[slot[firsts]]
    picked = _pick(sides, rows.tolist())
    n = len(picked)
    member, opponent, score, white = (
        np.fromiter(map(itemgetter(f), picked), kind, n)
        for f, kind in ((f_member, np.int64), (f_opponent, np.int64), (f_score, np.float64), (f_white, bool))
    )
    columns = GameColumns(
        game[rows],
        np.where(white, member, opponent),
        np.where(white, opponent, member),
        np.where(white, score, 1.0 - score),
        None,
    )
    if solo is not None and solo[rows].any():
        only = member.astype(object)
        only[~solo[rows]] = None
        columns = columns._replace(only_for=only)
    return columns


def _pick(sides: Sequence, rows: list[int]) -> Sequence:
    """The sides at ``rows`` (one C-level lookup each: twice as fast as a comprehension)."""
    if len(rows) == 1:
        return [sides[rows[0]]]  # itemgetter of one position gives the item, not a tuple
    return itemgetter(*rows)(sides)


def _slots(ids):
    """A slot per distinct id (dense ids: the id's offset; else its rank) and the slot count."""
    low, high = int(ids.min()), int(ids.max())
    if high - low <= 4 * len(ids) + 1024:
        return ids - low, high - low + 1
    distinct, slot = np.unique(ids, return_inverse=True)
    return slot, len(distinct)
