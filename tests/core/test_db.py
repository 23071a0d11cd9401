"""``clubrating.core.db``: the small statements a result save repeats, prepared on PostgreSQL."""

import pytest
from django.db import DataError, connection

from clubrating.core.db import plain_execute, plain_rows
from clubrating.tournaments.models import Game, Result
from tests.factories import GameFactory

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]

GAME = Game._meta.db_table


def test_plain_rows_and_plain_execute_read_and_write_on_either_database():
    game = GameFactory(result=Result.NOT_PLAYED)
    assert plain_execute(f"UPDATE {GAME} SET result = %s WHERE id = %s", [Result.DRAW, game.pk]) == 1
    assert plain_rows(f"SELECT id, result FROM {GAME} WHERE id = %s", [game.pk]) == [(game.pk, Result.DRAW)]
    assert plain_rows(f"SELECT id FROM {GAME} WHERE id = %s", [game.pk + 1000]) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_a_statement_run_twice_is_prepared_on_postgresql():
    sql = f"SELECT count(*) FROM {GAME} WHERE round_id = %s"
    for _ in range(2):  # DATABASE_PREPARE_THRESHOLD=1: prepared on its second run
        plain_rows(sql, [1])
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert f"SELECT count(*) FROM {GAME} WHERE round_id = $1" in prepared


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the server-binding cursor is PostgreSQL's")
def test_an_error_arrives_as_djangos_as_from_its_own_cursors():
    with pytest.raises(DataError):
        plain_rows("SELECT 1 / %s", [0])


def test_fetch_rows_reads_what_the_queryset_reads_even_a_filter_that_matches_nothing():
    from clubrating.core.db import fetch_rows

    game = GameFactory(result=Result.DRAW)
    values = Game.objects.filter(pk=game.pk).values_list("id", "result", "board")
    assert fetch_rows(values) == [(game.pk, Result.DRAW, game.board)] == [tuple(row) for row in values]
    assert fetch_rows(Game.objects.filter(pk__in=[]).values_list("id")) == []


def test_prepared_statements_enter_the_query_log_with_their_values_when_it_is_on():
    from django.test.utils import CaptureQueriesContext

    game = GameFactory(result=Result.DRAW)
    with CaptureQueriesContext(connection) as queries:
        plain_rows(f"SELECT id FROM {GAME} WHERE id = %s", [game.pk])
    assert len(queries) == 1
    assert queries[0]["sql"].endswith(f"WHERE id = {game.pk}")
