"""The result of the vectorised evaluation: players' results and per-game details built when
first read, from the evaluation's arrays."""

from __future__ import annotations

from collections.abc import Mapping

from ratings.rules.columns import GameColumns
from ratings.rules.period import PeriodResult, PlayerResult
from ratings.rules.presets import Rules

__all__ = ["PlayerTable", "VectorisedResult"]


class PlayerTable(Mapping):
    """``PeriodResult.players`` of the vectorised evaluation: the same keys in the same order,
    each PlayerResult built from the evaluation's arrays when it is first asked for (a caller
    reading a few players of a large pool does not pay for all of them)."""

    def __init__(self, keys: list, order, maker):
        self._keys = keys  # the players' keys by position
        self._order = order  # positions in the reference's order
        self._maker = maker  # () -> (position -> PlayerResult)
        self._make = None
        self._built: dict[int, PlayerResult] = {}
        self._index: dict | None = None

    def get(self, key, default=None):
        if self._index is None:
            self._index = {k: i for i, k in enumerate(self._keys)}
            self._make = self._maker()
        try:
            i = self._index.get(key)
        except TypeError:  # an unhashable key is no player's
            return default
        if i is None:
            return default
        built = self._built.get(i)
        if built is None:
            built = self._built[i] = self._make(i)
        return built

    def __getitem__(self, key) -> PlayerResult:
        found = self.get(key, _MISSING)
        if found is _MISSING:
            raise KeyError(key)
        return found

    def __contains__(self, key) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def __iter__(self):
        keys = self._keys
        return (keys[i] for i in self._order.tolist())

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"PlayerTable({len(self)} players)"


_MISSING = object()


class VectorisedResult(PeriodResult):
    """A PeriodResult whose per-game details (``games``) are derived from the columns when
    first asked for."""

    def __init__(self, rules: Rules, players: PlayerTable, iterations: int, columns: GameColumns, details):
        super().__init__(rules, players, iterations)
        self._columns = columns
        self._details = details

    def _load_details(self) -> None:
        if self._details is not None:
            self._deferred, self._factors, self._ratings = self._details()
            self._details = None
            if not self._source:
                self._source = self._columns.to_games()

    def __repr__(self) -> str:
        return f"PeriodResult({self.rules.name}, {len(self.players)} players, {len(self._columns.key)} games)"
