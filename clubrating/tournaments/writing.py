"""Writing results in bulk, each change kept in the game's history: only the owner of recording
(``recording``) calls it."""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from clubrating.core.db import plain_execute, server_bound
from clubrating.tournaments.models import Game, ResultChange


def game_results_write(
    *, games: list[Game], results: list[tuple[str, str]], by: int | None = None, reason: str = ""
) -> list[Game]:
    """Give each game its new ``(result, rated result)`` and keep every change in the result's
    history (who, when, old, new, why): the one place a result is written, by the owner of recording
    (``recording.game_result_record`` and, for many at once, ``game_results_record``: they check
    and rate it).

    The games hold the results they have now (the old ones of the history); they are changed in
    place and returned. A game whose result stays the same is not written and gets no history
    row. Checks are the caller's (``validation.result_validate``, the closed periods); callers
    run it inside their transaction (the result entry under the game's row lock).

    One game, the result entry's save, is one round trip on PostgreSQL (its update and history
    row in one execute); many games are one update per distinct result and one insert."""
    changes = []
    for game, (result, rated_result) in zip(games, results, strict=True):
        if (game.result, game.rated_result) != (result, rated_result):
            changes.append(ResultChange(
                game=game, changed_by_id=by, changed_at=timezone.now(), old_result=game.result,
                new_result=result, old_rated_result=game.rated_result, new_rated_result=rated_result,
                reason=reason,
            ))
            game.result, game.rated_result = result, rated_result
    if len(changes) == 1:
        _result_write_one(changes[0])
    elif changes:
        by_result: dict[tuple[str, str], list[int]] = {}
        for change in changes:
            by_result.setdefault((change.new_result, change.new_rated_result), []).append(change.game_id)
        for (result, rated_result), ids in by_result.items():
            Game.objects.filter(pk__in=ids).update(result=result, rated_result=rated_result)
        ResultChange.objects.bulk_create(changes, batch_size=500)
    return games


def _result_write_one(change: ResultChange) -> None:
    """One game's new result and its history row: what ``save`` and ``ResultChange.objects.create``
    would write, in one round trip on PostgreSQL (the result entry's save is tuned to its round
    trips: docs/operating.md, "Many officials at once")."""
    statements = [
        (
            f"UPDATE {Game._meta.db_table} SET result = %s, rated_result = %s WHERE id = %s",
            [change.new_result, change.new_rated_result, change.game_id],
        ),
        (
            f"INSERT INTO {ResultChange._meta.db_table} (game_id, changed_by_id, changed_at, old_result, "
            "new_result, old_rated_result, new_rated_result, reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [change.game_id, change.changed_by_id,
             connection.ops.adapt_datetimefield_value(change.changed_at), change.old_result,
             change.new_result, change.old_rated_result, change.new_rated_result, change.reason],
        ),
    ]
    if server_bound():  # one prepared statement: the history row's insert carries the update
        (update, update_params), (insert, insert_params) = statements
        plain_execute(f"WITH changed AS ({update}) {insert}", [*update_params, *insert_params])
        return
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
