"""Entering and correcting a game's result from the result-entry pages.

The ratings app owns the real service (``game_record_result``: game, history row and the rating
records of every pool, in one transaction). This adapter calls it when it is installed and
otherwise records the result and its history itself, so result entry also works in installations
without the ratings app.
"""

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from .models import PLAYED_RESULTS, Bye, Game, Result, ResultChange

# Where the ratings app provides the service; the first module that has it wins.
_SERVICE_MODULES = ("ratings.services", "ratings.services.results")


def _ratings_service() -> Callable | None:
    for name in _SERVICE_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        service = getattr(module, "game_record_result", None)
        if service is not None:
            return service
    return None


def result_validate(*, game: Game, result: str, rated_result: str | None = None) -> None:
    """Raise ValidationError (translated) if the result must not be saved."""
    valid = set(Result.values)
    if result not in valid or (rated_result is not None and rated_result not in valid):
        raise ValidationError(_("Choose one of the results offered."), code="invalid_result")
    if result == Result.NOT_PLAYED and rated_result not in (None, Result.NOT_PLAYED):
        raise ValidationError(_("A game that is not played yet cannot have a rated result."),
                              code="rated_without_result")
    if result in PLAYED_RESULTS and rated_result not in (None, result):
        # Only a forfeit scored for administrative reasons keeps a different, played rated result.
        raise ValidationError(_("A game scored as played over the board is rated as scored."),
                              code="rated_differs")
    players = {game.white_id, game.black_id}
    twice = (
        Game.objects.filter(round_id=game.round_id).exclude(pk=game.pk)
        .filter(Q(white_id__in=players) | Q(black_id__in=players)).exists()
    )
    if result != Result.NOT_PLAYED and twice:
        raise ValidationError(
            _("A player of this board is paired on another board of this round. Fix the pairing first."),
            code="player_twice",
        )
    has_bye = Bye.objects.filter(round_id=game.round_id, member_id__in=players).exists()
    if result != Result.NOT_PLAYED and has_bye:
        raise ValidationError(
            _("A player of this board has a bye in this round. Fix the pairing first."), code="bye_and_game"
        )


@dataclass(frozen=True)
class EnteredResult:
    game: Game
    changed: bool


def result_enter(*, game: Game, result: str, rated_result: str | None = None, user) -> EnteredResult:
    """Validate and record a result (or a correction). ``rated_result=None`` rates as scored."""
    result_validate(game=game, result=result, rated_result=rated_result)
    new_rated = result if rated_result is None else rated_result
    if game.result == result and game.rated_result == new_rated:
        return EnteredResult(game=game, changed=False)
    service = _ratings_service()
    if service is not None:
        try:
            service(game=game, result=result, rated_result=rated_result, user=user)
        except ValueError as error:
            # ratings.services.RatingsError (a ValueError) carries a translated message.
            raise ValidationError(str(error), code="ratings") from None
        game.refresh_from_db()
        return EnteredResult(game=game, changed=True)
    with transaction.atomic():
        # Lock the row so two officials correcting the same board queue up, and the history
        # records the value each of them actually replaced.
        locked = Game.objects.select_for_update().get(pk=game.pk)
        ResultChange.objects.create(
            game=locked, changed_by=user if getattr(user, "is_authenticated", False) else None,
            old_result=locked.result, new_result=result,
            old_rated_result=locked.rated_result, new_rated_result=new_rated,
        )
        locked.result = result
        locked.rated_result = new_rated
        locked.save(update_fields=["result", "rated_result"])
    game.refresh_from_db()
    return EnteredResult(game=game, changed=True)
