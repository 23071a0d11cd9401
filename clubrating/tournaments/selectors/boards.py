"""One board of the result entry, read in one query."""

from __future__ import annotations

import functools

from django.db import connection

from clubrating.clubs.models import Member
from clubrating.core.db import plain_rows, server_bound
from clubrating.tournaments.models import Game, Round, Tournament


def board_game(*, tournament_id: int, number: int, game_pk: int) -> Game:
    """The game ``game_pk`` of round ``number`` of the tournament, with its players, round and
    tournament (``Game.DoesNotExist`` if there is none). On PostgreSQL one prepared statement,
    built once: each saved board reads it, and the ORM took longer to build the query than the
    database to answer. (None of these models' fields converts what PostgreSQL returns.)"""
    if not server_bound():
        return Game.objects.select_related("white", "black", "round__tournament").get(
            pk=game_pk, round__tournament_id=tournament_id, round__number=number
        )
    rows = plain_rows(_board_sql(), [game_pk, tournament_id, number])
    if not rows:
        raise Game.DoesNotExist(f"Game {game_pk} does not exist.")
    row = rows[0]
    objs = []
    for model in _BOARD_MODELS:
        names = [f.attname for f in model._meta.concrete_fields]
        objs.append(model.from_db(connection.alias, names, row[: len(names)]))
        row = row[len(names):]
    game, rnd, tournament, white, black = objs
    rnd.tournament = tournament
    game.round, game.white, game.black = rnd, white, black
    return game


_BOARD_MODELS = (Game, Round, Tournament, Member, Member)


@functools.cache
def _board_sql() -> str:
    quote = connection.ops.quote_name
    aliases = ("g", "r", "t", "w", "b")
    columns = ", ".join(
        f"{alias}.{quote(f.column)}" for model, alias in zip(_BOARD_MODELS, aliases)
        for f in model._meta.concrete_fields
    )
    member = Member._meta.db_table
    return (
        f"SELECT {columns} FROM {Game._meta.db_table} AS g "
        f"JOIN {Round._meta.db_table} AS r ON r.id = g.round_id "
        f"JOIN {Tournament._meta.db_table} AS t ON t.id = r.tournament_id "
        f"JOIN {member} AS w ON w.id = g.white_id JOIN {member} AS b ON b.id = g.black_id "
        "WHERE g.id = %s AND r.tournament_id = %s AND r.number = %s"
    )
