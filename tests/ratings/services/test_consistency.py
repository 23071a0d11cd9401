"""Random sequences of service calls on a small pool: after every step the stored records and live
values equal a fresh ``pool_recalculate`` (run in a savepoint that is rolled back). The steps include
admin edits (a game's date, bulk deletion), stale saves refused by the ``seen`` check and game date
changes through the ratings service."""

import datetime
import random

import pytest
from django.db import transaction
from django.urls import reverse

from clubrating.tournaments.models import Game, Result
from ratings.models import PeriodState, RatingPeriod
from ratings.services import (
    RatingsError,
    game_date_change,
    game_record_result,
    period_close,
    period_reopen,
    pool_recalculate,
)
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, unplayed_game
from tests.ratings.services.test_recalc import snapshot
from tests.tournaments.admin_helpers import change

pytestmark = pytest.mark.django_db

RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.NOT_PLAYED, Result("+-")]


def recalculated(pool):
    with transaction.atomic():
        pool_recalculate(pool=pool)
        after = snapshot(pool)
        transaction.set_rollback(True)
    return after


def build(rng, newcomers=4):
    pool = make_pool(start=datetime.date(2025, 1, 1))  # half-year periods
    rated = [MemberFactory() for _ in range(8 - newcomers)]
    newcomers = [MemberFactory() for _ in range(newcomers)]
    publish_start_list(pool, {m: (1500 + 120 * i, 5 * i) for i, m in enumerate(rated)})
    players = rated + newcomers
    games = []
    # Three periods and the time after them; newcomers reach 7 games only across periods.
    for month in (2, 4, 5, 8, 10, 11, 2 + 12, 4 + 12, 8 + 12):
        day = datetime.date(2025 + (month - 1) // 12, (month - 1) % 12 + 1, 10)
        rnd = RoundFactory(tournament=TournamentFactory(start_date=day), number=1, date=day)
        drawn = rng.sample(players, 6)
        for board in range(1, 4):
            white, black = drawn[2 * board - 2 : 2 * board]
            games.append(unplayed_game(rnd, white, black, board=board))
    return pool, games


OPERATIONS = ["result", "close", "reopen", "move", "flag", "date", "stale", "admin_date", "admin_delete"]


def step(rng, pool, games, admin_client=None) -> str:
    op = rng.choices(OPERATIONS, weights=[10, 2, 1, 2, 1, 2, 2, 1 if admin_client else 0,
                                          1 if admin_client else 0])[0]
    try:
        if op == "result":
            game = rng.choice(games)
            game_record_result(game=game, result=rng.choice(RESULTS))
        elif op == "close":
            period_close(pool=pool)
        elif op == "reopen":
            closed = RatingPeriod.objects.filter(pool=pool, state=PeriodState.CLOSED).order_by("start").last()
            if closed is None:
                return op
            period_reopen(period=closed, reason="Korrektur")
        elif op == "flag":  # the game's "rated" flag edited, then saved again
            game = Game.objects.get(pk=rng.choice(games).pk)
            with transaction.atomic():
                game.rated = not game.rated
                game.save(update_fields=["rated"])
                game_record_result(game=game, result=game.result)
        elif op == "move":  # an edited game date, then the result saved again through the service
            game = Game.objects.get(pk=rng.choice(games).pk)
            with transaction.atomic():
                game.date = datetime.date(2025, 1, 15) + datetime.timedelta(days=rng.randrange(500))
                game.save(update_fields=["date"])
                game_record_result(game=game, result=game.result)
        elif op == "date":  # a game's own date through the ratings service
            game_date_change(game=rng.choice(games), date=_some_day(rng))
        elif op == "stale":  # an official saves from a page drawn before another's save
            game = Game.objects.get(pk=rng.choice(games).pk)
            seen = rng.choice([r for r in RESULTS if r != game.result])
            before = snapshot(pool)
            with pytest.raises(RatingsError) as refused:
                game_record_result(game=game, result=rng.choice(RESULTS), seen=seen)
            assert refused.value.code == "stale" and snapshot(pool) == before
            game_record_result(game=game, result=rng.choice(RESULTS), seen=game.result)
        elif op == "admin_date":  # the admin's change form (the ratings service behind it)
            change(admin_client, "game", rng.choice(games), date=_some_day(rng).isoformat())
        else:  # the admin's bulk deletion (the ratings service withdraws the result first)
            game = rng.choice(games)
            admin_client.post(reverse("admin:tournaments_game_changelist"),
                              {"action": "delete_selected", "_selected_action": [game.pk], "post": "yes"})
            if not Game.objects.filter(pk=game.pk).exists():
                games.remove(game)
    except RatingsError:
        pass
    return op


def _some_day(rng) -> datetime.date:
    return datetime.date(2025, 1, 15) + datetime.timedelta(days=rng.randrange(500))


@pytest.mark.parametrize("seed", range(6))
def test_random_service_sequences_equal_a_recalculation(seed, admin_client):
    rng = random.Random(seed)
    pool, games = build(rng)
    done = []
    for _ in range(40):
        done.append(step(rng, pool, games, admin_client))
        assert snapshot(pool) == recalculated(pool), f"after {done}"
