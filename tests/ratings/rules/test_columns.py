"""Games as columns: read from GameIn tuples and from stored side records, exactly."""

import random

import numpy as np

from ratings.rules import GameIn
from ratings.rules.columns import GameColumns, columns_from_games, games_from_sides

FIELDS = (1, 2, 3, 4, 5, 6)  # game, member, opponent, white, score, solo in a side record


def games_one_by_one(sides) -> list[GameIn]:
    """The definition: a game per game id in the order of its first side; the first side gives
    colours and score, unless a solo side comes (the last one then gives them, for its member)."""
    games: dict[int, GameIn] = {}
    for _, game, member, opponent, white, score, solo in sides:
        if game in games and not solo:
            continue
        w, b = (member, opponent) if white else (opponent, member)
        games[game] = GameIn(game, w, b, score if white else 1.0 - score, member if solo else None)
    return list(games.values())


def random_sides(seed: int, *, sparse: bool) -> list[tuple]:
    """Both sides of most games, one side of some (the other player's records were not loaded),
    solo sides (carried for one player), beside a normal side of their game or alone, in a
    shuffled order."""
    rng = random.Random(seed)
    game_id = (lambda i: 10**9 + i * 7919) if sparse else (lambda i: 500 + i)
    sides = []
    for i in range(300):
        g, w, b = game_id(i), rng.randrange(1, 40), rng.randrange(40, 80)
        score = rng.choice((0.0, 0.5, 1.0))
        kind = rng.random()
        if kind < 0.1:
            sides.append((len(sides), g, w, b, True, score, True))
        elif kind < 0.2:
            sides.append((len(sides), g, b, w, False, 1.0 - score, True))
        elif kind < 0.3:
            sides.append((len(sides), g, b, w, False, 1.0 - score, False))
        elif kind < 0.35:  # a normal side and a solo side of one game
            sides.append((len(sides), g, w, b, True, score, False))
            sides.append((len(sides), g, b, w, False, 1.0 - score, True))
        else:
            sides.append((len(sides), g, w, b, True, score, False))
            sides.append((len(sides), g, b, w, False, 1.0 - score, False))
    rng.shuffle(sides)
    return sides


def test_side_records_give_the_games_one_by_one_gives():
    for seed in range(8):
        sides = random_sides(seed, sparse=seed % 2 == 1)
        columns = games_from_sides(sides, FIELDS)
        assert columns.to_games() == games_one_by_one(sides)
        assert all(isinstance(c, np.ndarray) for c in columns[:4])


def test_a_solo_side_decides_its_game():
    sides = [
        (0, 7, 1, 2, True, 1.0, False),
        (1, 7, 2, 1, False, 0.0, True),  # carried for member 2 only
        (2, 8, 3, 1, False, 0.5, False),
    ]
    assert games_from_sides(sides, FIELDS).to_games() == [GameIn(7, 1, 2, 1.0, 2), GameIn(8, 1, 3, 0.5)]


def test_without_solo_sides_every_game_counts_for_both():
    columns = games_from_sides([(0, 5, 1, 2, False, 0.0, False), (1, 5, 2, 1, True, 1.0, False)], FIELDS)
    assert columns.only_for is None
    assert columns.to_games() == [GameIn(5, 2, 1, 1.0)]
    assert columns.player_keys() == [1, 2]


def test_no_sides():
    columns = games_from_sides([], FIELDS)
    assert columns.to_games() == [] and columns.player_keys() == []


def test_games_in_tuples_become_columns_and_back():
    games = [GameIn(1, 10, 20, 1.0), GameIn(2, 20, 30, 0.5, only_for=30), GameIn(3, 30, 10, 0.0)]
    columns = columns_from_games(games)
    assert columns.key.tolist() == [1, 2, 3] and columns.score.tolist() == [1.0, 0.5, 0.0]
    assert columns.only_for == [None, 30, None]
    assert columns.to_games() == games
    assert columns.at([2, 0]) == [games[2], games[0]]
    assert columns.player_keys() == [10, 20, 30]


def test_other_keys_stay_lists():
    games = [GameIn(("r1", 1), "anna", "bert", 1.0), GameIn(("r1", 2), "carl", "anna", 0.5)]
    columns = columns_from_games(games)
    assert columns.white == ["anna", "carl"] and columns.key == [("r1", 1), ("r1", 2)]
    assert columns.only_for is None
    assert columns.to_games() == games
    assert columns.player_keys() == ["anna", "carl", "bert"]


def test_a_score_that_is_no_number_stays_as_written():
    columns = columns_from_games([GameIn(1, 10, 20, "1"), GameIn(2, 20, 10, 0.5)])
    assert columns.score == ["1", 0.5]
    assert isinstance(GameColumns(*columns), GameColumns)


def test_a_single_side():
    assert games_from_sides([(0, 9, 4, 5, False, 0.5, False)], FIELDS).to_games() == [GameIn(9, 5, 4, 0.5)]
