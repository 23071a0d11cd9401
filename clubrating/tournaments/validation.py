"""Whether a result may be saved for a game: the one check every way of entering a result runs."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

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
    players = {game.white_id, game.black_id}
    twice = (
        Game.objects.filter(round_id=game.round_id).exclude(pk=game.pk)
        .filter(Q(white_id__in=players) | Q(black_id__in=players)).exists()
    )
    if twice:
        raise TournamentRefused(
            _("A player of this board is paired on another board of this round. Fix the pairing first."),
            code="player_twice",
        )
    if Bye.objects.filter(round_id=game.round_id, member_id__in=players).exists():
        raise TournamentRefused(
            _("A player of this board has a bye in this round. Fix the pairing first."), code="bye_and_game"
        )
