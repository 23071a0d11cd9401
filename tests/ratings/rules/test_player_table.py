"""The vectorised evaluation's player table reads like the reference's dict of results."""

import pytest

from ratings.rules import get_rules
from ratings.rules.period import evaluate_period_reference
from ratings.rules.player_table import PlayerTable
from ratings.rules.vectorised import evaluate_period_vectorised
from tests.ratings.rules.test_vectorised import random_period


def test_players_are_built_when_read_and_read_like_a_dict():
    players, games = random_period(1)
    result = evaluate_period_vectorised(get_rules("oesb-classic"), players, games, year=2026)
    table = result.players
    assert isinstance(table, PlayerTable) and not table._built
    first = next(iter(table))
    assert table[first] is table.get(first) and len(table._built) == 1
    assert first in table and "nobody" not in table and [] not in table
    assert table.get("nobody") is None and table.get("nobody", 0) == 0
    with pytest.raises(KeyError):
        table["nobody"]
    assert len(table) == len(players) == len(dict(table.items()))
    reference = evaluate_period_reference(get_rules("oesb-classic"), players, games, year=2026)
    assert list(table) == list(reference.players)
