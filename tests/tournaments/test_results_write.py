"""``services.game_results_write`` (``tournaments.writing``): the one place a result and its history row
are written."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.tournaments import services, writing
from clubrating.tournaments.models import Game, Result, ResultChange
from tests.factories import GameFactory, RoundFactory

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]


def _history(game):
    return list(ResultChange.objects.filter(game=game).values_list(
        "old_result", "new_result", "old_rated_result", "new_rated_result", "changed_by__username", "reason"))


def test_one_game_is_written_with_its_history_row():
    user = User.objects.create_user("anna")
    game = GameFactory(result=Result.WHITE_WINS, rated_result=Result.WHITE_WINS)
    services.game_results_write(games=[game], results=[(Result.DRAW, Result.DRAW)], by=user.pk,
                                reason="Schreibfehler")
    assert (game.result, game.rated_result) == (Result.DRAW, Result.DRAW)
    assert Game.objects.values_list("result", "rated_result").get(pk=game.pk) == ("1/2", "1/2")
    assert _history(game) == [("1-0", "1/2", "1-0", "1/2", "anna", "Schreibfehler")]


def test_one_game_is_one_prepared_statement_on_postgresql_else_two_statements(monkeypatch):
    game = GameFactory(result=Result.NOT_PLAYED, rated_result=Result.NOT_PLAYED)
    prepared = []
    real = writing.plain_execute
    monkeypatch.setattr("clubrating.tournaments.writing.plain_execute",
                        lambda sql, params: prepared.append(sql) or real(sql, params))
    with CaptureQueriesContext(connection) as queries:
        services.game_results_write(games=[game], results=[(Result.BLACK_WINS, Result.BLACK_WINS)])
    # (The prepared statement enters Django's query log as its own statements do.)
    assert (len(prepared), len(queries)) == ((1, 1) if connection.vendor == "postgresql" else (0, 2))
    assert _history(game) == [("", "0-1", "", "0-1", None, "")]


def test_an_unchanged_result_writes_nothing():
    game = GameFactory(result=Result.DRAW, rated_result=Result.DRAW)
    with CaptureQueriesContext(connection) as queries:
        services.game_results_write(games=[game], results=[(Result.DRAW, Result.DRAW)])
    assert len(queries) == 0
    assert _history(game) == []


def test_many_games_take_one_update_per_result_and_one_insert():
    rnd = RoundFactory()
    games = [GameFactory(round=rnd, board=board, result="", rated_result="") for board in range(1, 6)]
    results = [("1-0", "1-0"), ("1/2", "1/2"), ("1-0", "1-0"), ("+-", "+-"), ("", "")]
    with CaptureQueriesContext(connection) as queries:
        services.game_results_write(games=games, results=results)
    assert len(queries) == 4  # 1-0, 1/2 and +- updated, the history rows in one insert
    assert list(Game.objects.filter(round=rnd).order_by("board").values_list("result", "rated_result")) == [
        ("1-0", "1-0"), ("1/2", "1/2"), ("1-0", "1-0"), ("+-", "+-"), ("", "")]
    assert sorted(ResultChange.objects.filter(game__round=rnd).values_list("game__board", "new_result")) == [
        (1, "1-0"), (2, "1/2"), (3, "1-0"), (4, "+-")]
