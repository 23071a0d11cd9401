"""Two officials save results of the same round at the same moment (SQLite and PostgreSQL)."""

import threading

import pytest
from django.db import connection

from clubrating.tournaments.models import Result
from ratings.services import game_record_result, pool_recalculate
from tests.ratings.services.scenario import build
from tests.ratings.services.test_recalc import snapshot


def _save_together(games_and_results):
    barrier = threading.Barrier(len(games_and_results))
    errors = []

    def save(game, result):
        try:
            barrier.wait()
            game_record_result(game=game, result=result)
        except Exception as exc:  # reported to the test thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=pair) for pair in games_and_results]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@pytest.mark.django_db(transaction=True)
def test_two_results_of_one_round_saved_at_once_both_count_and_equal_a_recalculation():
    pool, rated, newcomers, first, second, rng = build()
    round_one = [g for g in first if g.round.number == 1 and g.round.tournament.name == "Frühjahr"]
    assert len(round_one) >= 2
    for attempt in range(3):  # several rounds of simultaneous saves, with newcomers involved
        results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS][attempt]
        errors = _save_together([(g, results) for g in round_one])
        assert errors == []
    for g in round_one:
        g.refresh_from_db()
        assert g.result == Result.BLACK_WINS
    before = snapshot(pool)
    assert len(before[0]) == 2 * len(round_one)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before
