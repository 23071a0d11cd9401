"""Whether a result may be saved for a game: the one check every way of entering a result runs."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clubrating.core.db import plain_rows
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import FORFEIT_RESULTS, PLAYED_RESULTS, Bye, Game, Result


def result_validate(*, game: Game, result: str, rated_result: str | None = None) -> None:
    """Raise ``TournamentRefused`` (translated, with a ``code``) if the result must not be saved.

    ``rated_result=None`` means "rated as scored". The scored and the rated result may differ
    only for a game played over the board and scored as a forfeit for administrative reasons: the
    played result is then rated (Austrian national rating rules, which games are rated). A game
    without a result has no rated result; a played result is rated as scored.
    """
    valid = set(Result.values)
    if result not in valid or (rated_result is not None and rated_result not in valid):
        raise TournamentRefused(_("Choose one of the results offered."), code="invalid_result")
    rated = result if rated_result is None else rated_result
    if result == Result.NOT_PLAYED and rated != Result.NOT_PLAYED:
        raise TournamentRefused(_("A game that is not played yet cannot have a rated result."),
                                code="rated_without_result")
    if result in PLAYED_RESULTS and rated != result:
        raise TournamentRefused(_("A game scored as played over the board is rated as scored."),
                                code="rated_differs")
    if result in FORFEIT_RESULTS and rated != result and rated not in PLAYED_RESULTS:
        raise TournamentRefused(
            _("A forfeit is not rated; only the result played over the board can be rated instead."),
            code="rated_forfeit",
        )
    if result == Result.NOT_PLAYED:
        return
    players = [game.white_id, game.black_id]
    # Both pairing checks in one statement, built once: a save is one official's keystroke, and
    # the ORM took longer to build the two queries than the database to answer them.
    # (Prepared on PostgreSQL.)
    ((twice, bye),) = plain_rows(
        _PAIRING_SQL, [game.round_id, game.pk, *players, *players, game.round_id, *players]
    )
    if twice:
        raise TournamentRefused(
            _("A player of this board is paired on another board of this round. Fix the pairing first."),
            code="player_twice",
        )
    if bye:
        raise TournamentRefused(
            _("A player of this board has a bye in this round. Fix the pairing first."), code="bye_and_game"
        )


# Is a player of the board paired on another board of its round, or does he have a bye in it?
_PAIRING_SQL = (
    f"SELECT EXISTS (SELECT 1 FROM {Game._meta.db_table} WHERE round_id = %s AND id <> %s "
    "AND (white_id IN (%s, %s) OR black_id IN (%s, %s))), "
    f"EXISTS (SELECT 1 FROM {Bye._meta.db_table} WHERE round_id = %s AND member_id IN (%s, %s))"
)


def games_pairing_conflict(*, games: list[Game]) -> tuple[Game, int, str] | None:
    """The pairing check of ``result_validate`` for many games at once, also before they are
    stored (an import): the first of ``games`` that puts a player into its round twice, beside
    another of them or beside a game or bye the round holds already, as (that game, the member's
    id, the code ``result_validate`` refuses it with: "player_twice" or "bye_and_game"); None
    when every player plays once per round. Two queries, whatever the number of games."""
    rounds = {game.round_id for game in games}
    ours = {game.pk for game in games if game.pk is not None}
    busy: dict[tuple[int, int], str] = {}  # (round, member) -> why he may not play there again
    stored = Game.objects.filter(round_id__in=rounds).exclude(pk__in=ours)
    for round_id, white, black in stored.values_list("round_id", "white_id", "black_id"):
        busy[(round_id, white)] = busy[(round_id, black)] = "player_twice"
    for round_id, member in Bye.objects.filter(round_id__in=rounds).values_list("round_id", "member_id"):
        busy[(round_id, member)] = "bye_and_game"
    for game in games:
        for member in (game.white_id, game.black_id):
            if (game.round_id, member) in busy:
                return game, member, busy[(game.round_id, member)]
            busy[(game.round_id, member)] = "player_twice"
    return None
