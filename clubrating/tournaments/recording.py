"""Recording a game's result: the one owner of checking, writing and rating it. The result
entry, the league's captains and director, the admin and the demo call ``game_result_record``;
the imports (TRF, PGN) and the demo's rounds record many results at once
with ``game_results_record``: each checked as one save is, written in sets, rated once.

Rating a result is the ratings app's work, and the club apps never import it: the ratings app
registers its ``ResultRater`` here when it is loaded (``ratings.apps``), and every recording
calls it in the same transaction. Without a rater (an installation without ratings) results are
checked and written only.

Lock scope: the game's row for update and its round and tournament for share (``game_locked``;
PostgreSQL: saves of different boards of one round run side by side, a change of the round or
tournament waits for them; SQLite serialises writers), held until the caller's transaction
ends. Under that lock the rater locks the rating pools the change touches in their shared form
and the members whose ratings it rewrites (``ratings.services.db``); so two saves of one board
queue, saves of different boards do not, and the ``seen`` check compares with the committed
result.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol

from django.db import connection, transaction
from django.utils.translation import gettext as _

from clubrating.core.db import prepared_cursor

from .errors import TournamentRefused
from .models import Game, Round, Tournament
from .validation import result_validate
from .writing import game_results_write


class ResultRater(Protocol):
    """What rates a recorded result (``ratings.services.results``)."""

    def prepare_many(self, games: list[Game]) -> Any:
        """``prepare`` for many games at once (``game_results_record``)."""

    def rate_many(self, games: list[Game], prepared: Any) -> None:
        """``rate`` for many games at once: each pool's period evaluated once for the lot."""

    def scope(self) -> AbstractContextManager:
        """A context the whole recording runs in (the database's settings for a save)."""

    def prepare(self, game: Game) -> Any:
        """Under the game's lock, before the result is written: lock what the change touches and
        refuse (``Refused``) a change the ratings do not allow (a closed period)."""

    def rate(self, game: Game, prepared: Any) -> None:
        """After the result is written: rate it (``prepared``: what ``prepare`` returned)."""


_rater: ResultRater | None = None


def result_rater_register(rater: ResultRater) -> None:
    global _rater
    _rater = rater


def game_result_record(
    *, game: Game, result: str, rated_result: str | None = None, user=None, seen: str | None = None,
    reason: str = "",
) -> Game:
    """Record, correct or delete (``result=""``) a game's result and rate it, in one transaction.

    ``rated_result`` defaults to ``result`` (forfeits are scored but never rated: checked by
    ``validation.result_validate``). ``seen`` is the result the official saw when his page was
    drawn: compared under the game's lock, so of two officials saving one board from the same
    page state exactly one is saved and the other refused (``code="stale"``) with what the board
    holds now. ``reason`` is kept in the result's history. Returns the game as saved."""
    with transaction.atomic(), (_rater.scope() if _rater is not None else nullcontext()):
        game = game_locked(game)
        if seen is not None and seen != game.result:
            raise TournamentRefused(
                _(
                    "Another official has saved this board meanwhile: it now holds %(result)s. "
                    "Nothing of yours was saved; check the result and save again."
                )
                % {"result": game.get_result_display()},
                code="stale",
            )
        result_validate(game=game, result=result, rated_result=rated_result)
        prepared = _rater.prepare(game) if _rater is not None else None
        by = user.pk if user is not None and user.is_authenticated else None
        game_results_write(games=[game], results=[(result, result if rated_result is None else rated_result)],
                           by=by, reason=reason)
        if _rater is not None:
            _rater.rate(game, prepared)
        return game


def game_results_record(
    *, games: list[Game], results: list[tuple[str, str | None]], user=None, reason: str = "",
) -> list[Game]:
    """Record many games' ``(result, rated result or None)`` at once and rate them, in one
    transaction: an import, the demo's rounds. Each result is checked as one save is
    (``validation.result_validate``); the first refused one refuses the lot, naming its round and
    board, and nothing is kept. Written in sets (``game_results_write``: one update per distinct
    result, one insert of the history), rated once (each touched pool's period evaluated once).

    Lock scope: as ``game_result_record``'s, for all the games at once (``games_locked``).
    Returns the games as saved, in the order given."""
    if len(games) != len(results):
        raise ValueError("one result per game")
    with transaction.atomic(), (_rater.scope() if _rater is not None else nullcontext()):
        locked = games_locked(games)
        pairs = [(result, result if rated is None else rated) for result, rated in results]
        for game, (result, rated) in zip(locked, pairs, strict=True):
            try:
                result_validate(game=game, result=result, rated_result=rated)
            except TournamentRefused as refusal:
                raise TournamentRefused(
                    _("Round %(round)d, board %(board)d: %(reason)s")
                    % {"round": game.round.number, "board": game.board, "reason": refusal},
                    code=refusal.code,
                ) from refusal
        prepared = _rater.prepare_many(locked) if _rater is not None else None
        by = user.pk if user is not None and user.is_authenticated else None
        game_results_write(games=locked, results=pairs, by=by, reason=reason)
        if _rater is not None:
            _rater.rate_many(locked, prepared)
        return locked


def games_locked(games: list[Game]) -> list[Game]:
    """``game_locked`` for many games, in one statement (PostgreSQL: in the games' id order, so
    that two recordings of overlapping sets cannot deadlock), returned in the order given."""
    ids = [game.pk for game in games]
    if connection.vendor != "postgresql":
        found = Game.objects.select_related("round__tournament").in_bulk(ids)
    else:
        found = {}
        with connection.cursor() as cursor:
            cursor.execute(_lock_sql(many=True), [ids])
            for row in cursor.fetchall():
                game = _from_row(row)
                found[game.pk] = game
    missing = set(ids) - found.keys()
    if missing:
        raise Game.DoesNotExist(f"Games {sorted(missing)} do not exist.")
    return [found[pk] for pk in ids]


def game_locked(game: Game) -> Game:
    """The game under its row lock, with its round and tournament as they are now.

    On PostgreSQL the game is locked for update and its round and tournament for share, and all
    three are read, in one statement: saves of different boards of one round run side by side,
    while a change of the round or tournament (a pairing changed, a round moved to another day,
    the next round paired) still waits for them, and they for it. The rows are read under the
    locks, so the round's date (hence the game's period) is the committed one."""
    if connection.vendor != "postgresql":  # SQLite serialises writers: nothing to lock
        return Game.objects.select_related("round__tournament").get(pk=game.pk)
    with prepared_cursor() as cursor:
        cursor.execute(_lock_sql(), [game.pk])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"Game {game.pk} does not exist.")
    return _from_row(row)


def _from_row(row) -> Game:
    """The game with its round and tournament from a row of ``_lock_sql``."""
    objs = []
    for model in (Game, Round, Tournament):
        names = [f.attname for f in model._meta.concrete_fields]
        objs.append(model.from_db(connection.alias, names, row[: len(names)]))
        row = row[len(names) :]
    locked, rnd, tournament = objs
    rnd.tournament = tournament
    locked.round = rnd
    return locked


def _lock_sql(*, many: bool = False) -> str:
    """The locking read of ``game_locked`` (``many``: of ``games_locked``, the ids as one array):
    the three tables' columns as the models list them (plain values on PostgreSQL: none of these
    fields converts what the database returns)."""
    tables = ((Game, "g"), (Round, "r"), (Tournament, "t"))
    quote = connection.ops.quote_name
    columns = ", ".join(
        f"{alias}.{quote(f.column)}" for model, alias in tables for f in model._meta.concrete_fields
    )
    return (
        f"SELECT {columns} FROM {Game._meta.db_table} AS g "
        f"JOIN {Round._meta.db_table} AS r ON r.id = g.round_id "
        f"JOIN {Tournament._meta.db_table} AS t ON t.id = r.tournament_id "
        + ("WHERE g.id = ANY(%s) ORDER BY g.id " if many else "WHERE g.id = %s ")
        + "FOR UPDATE OF g FOR SHARE OF r, t"
    )
