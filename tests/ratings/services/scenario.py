"""A small pool with rated players and a group of newcomers over two periods, entered result by
result through the service (shared by the recalculation, period and concurrency tests)."""

import datetime
import random

from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, unplayed_game

RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]


def round_robin_games(members, start, name):
    """Every pair once, one round per pair-slot (circle method), results left open."""
    t = TournamentFactory(name=name, start_date=start, rounds_count=len(members) - 1)
    players = list(members) + ([None] if len(members) % 2 else [])
    n = len(players)
    games = []
    for r in range(n - 1):
        rnd = RoundFactory(tournament=t, number=r + 1, date=start + datetime.timedelta(days=r))
        board = 0
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if a is None or b is None:
                continue
            board += 1
            games.append(unplayed_game(rnd, a, b, board=board))
        players = [players[0], players[-1], *players[1:-1]]
    return games


def build(seed=7, rules="oesb-classic"):
    rng = random.Random(seed)
    pool = make_pool(rules=rules, start=datetime.date(2025, 1, 1))
    rated = [MemberFactory() for _ in range(6)]
    newcomers = [MemberFactory() for _ in range(5)]
    publish_start_list(pool, {m: (1500 + 90 * i, 10 * i) for i, m in enumerate(rated)})
    # newcomers[3] plays 3 games in the first period (pending, carried) and 5 in the second;
    # newcomers[:3] get start values in the first; newcomers[4] stays pending after the second.
    first = round_robin_games(rated + newcomers[:3], datetime.date(2025, 3, 1), "Frühjahr")
    first += round_robin_games(rated[:3] + newcomers[3:4], datetime.date(2025, 5, 1), "Mai")
    second = round_robin_games(rated[:3] + newcomers[2:], datetime.date(2025, 9, 1), "Herbst")
    return pool, rated, newcomers, first, second, rng


def play(games, rng):
    for game in games:
        game_record_result(game=game, result=rng.choice(RESULTS))
