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
