"""Result entry for officials: one page per round, one htmx form per board."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubrating.accounts.permissions import official_required
from clubrating.core.errors import Refused
from ratings.selectors import game_rating_changes, games_closed_periods

from ..forms import RESULT_CONTROLS, CorrectionForm, ResultForm, confirmation_of, result_key_legend
from ..models import Game, Result, Round
from ..recording import game_result_record
from ..selectors import board_game
from ._league import league_division, league_refusal, not_a_league_division
from .public import games_queryset, tournament_context


def _board_context(game: Game, form: ResultForm, changes=None, saved: bool = False,
                   confirm: bool = False, locked=None) -> dict:
    current = form["result"].value() if form.is_bound else game.result
    return {"game": game, "form": form, "controls": RESULT_CONTROLS, "saved": saved,
            "changes": changes if changes is not None else [], "current": current,
            "confirm": confirm, "new_result_display": dict(Result.choices).get(current, ""),
            "confirm_answer": confirmation_of(current or ""),
            # What the question asks about: a change of an entered result, a game after today.
            "confirm_change": confirm and form.changes_entered(),
            "confirm_future": confirm and form.is_future(),
            # The closed rating period that keeps the board from being changed (shown locked).
            "locked_period": locked}


def _refresh(game: Game, saved: Game | None = None) -> None:
    """Take what the board holds now (``saved``: the row as the save left it, else read again),
    keeping its round and players where they are still the same (``refresh_from_db`` forgets
    them, and the row would read each again)."""
    related = {name: getattr(game, name) for name in ("round", "white", "black")}
    if saved is None:
        game.refresh_from_db()
    else:
        for field in Game._meta.concrete_fields:
            setattr(game, field.attname, getattr(saved, field.attname))
    for name, obj in related.items():
        if getattr(game, f"{name}_id") == obj.pk:
            setattr(game, name, obj)
        elif Game._meta.get_field(name).is_cached(game):
            Game._meta.get_field(name).delete_cached_value(game)  # read again when shown


@official_required
@not_a_league_division
def round_results(request, pk, number):
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    games = list(games_queryset().filter(round=rnd))
    for g in games:  # the board forms' URLs need the round: one query for the page, not one per board
        g.round = rnd
    changes = game_rating_changes(g.pk for g in games)
    locked = games_closed_periods(games, rnd.tournament)
    boards = [_board_context(g, ResultForm(game=g), changes.get(g.pk, []), locked=locked.get(g.pk))
              for g in games]
    # The first board without a result gets the focus: the official starts typing at once.
    first_open = next((g.pk for g in games if not g.result and g.pk not in locked),
                      next((g.pk for g in games if g.pk not in locked), None))
    return render(request, "tournaments/results/round_results.html", tournament_context(
        request, rnd.tournament, "results", round=rnd, boards=boards, first_open=first_open,
        byes=rnd.byes.select_related("member"), controls=RESULT_CONTROLS,
        key_legend=result_key_legend(),
    ))


def _save(request, game: Game, form: ResultForm, rated_result=None) -> tuple[bool, list]:
    """Validate and save; errors land on the form (translated). Returns (saved, changes); once
    saved, ``game`` holds what the board holds now."""
    if not form.is_valid() or form.needs_confirmation():
        return False, []
    try:
        saved = game_result_record(game=game, result=form.cleaned_data["result"], user=request.user,
                                   rated_result=rated_result, seen=form.seen_value(),
                                   reason=form.cleaned_data.get("reason", ""))
    except Refused as error:
        form.add_error(None, error.message)
        return False, []
    _refresh(game, saved)
    return True, game_rating_changes([game.pk]).get(game.pk, [])


@official_required
@require_http_methods(["GET", "POST"])
@not_a_league_division
def board_result(request, pk, number, game_pk):
    """One board's form: GET draws it afresh (a cancelled change), POST saves it."""
    try:
        game = board_game(tournament_id=pk, number=number, game_pk=game_pk)
    except Game.DoesNotExist:
        raise Http404 from None
    if request.method == "GET":
        changes = game_rating_changes([game.pk]).get(game.pk, [])
        return render(request, "tournaments/results/_board.html", _board_context(
            game, ResultForm(game=game), changes,
            locked=games_closed_periods([game], game.round.tournament).get(game.pk)))
    form = ResultForm(request.POST, game=game)
    saved, changes = _save(request, game, form)
    confirm = not saved and form.is_valid() and form.needs_confirmation()
    if request.htmx or confirm:
        # Always 200: htmx swaps only successful responses, and the errors belong in the row.
        # Saved or refused, the row shows what the board holds now (the hidden ``seen`` too);
        # a change of an entered result comes back as the question whether to change it.
        locked = None
        if saved:
            form = ResultForm(game=game)
        else:
            _refresh(game)
            if not confirm:  # refused: perhaps by a period closed since the page was drawn
                locked = games_closed_periods([game], game.round.tournament).get(game.pk)
        if confirm and not request.htmx:
            return render(request, "tournaments/results/confirm.html", tournament_context(
                request, game.round.tournament, "results", round=game.round,
                **_board_context(game, form, confirm=True)))
        return render(request, "tournaments/results/_board.html",
                      _board_context(game, form, changes, saved=saved, confirm=confirm, locked=locked))
    # Without JavaScript: back to the round page with a message.
    if saved:
        messages.success(request, _("Board %(board)s saved.") % {"board": game.board})
    else:
        messages.error(request, _("Board %(board)s: %(errors)s") % {
            "board": game.board, "errors": " ".join(form.non_field_errors() + form["result"].errors)})
    return redirect("tournaments:results", pk=pk, number=number)


@official_required
@require_POST
def game_correct(request, pk):
    """The correction form on the game page (scored and rated result)."""
    game = get_object_or_404(Game.objects.select_related("white", "black", "round__tournament"), pk=pk)
    division = league_division(game.round.tournament_id)
    if division is not None:  # a league board: the league director decides its match
        return league_refusal(request, division)
    form = CorrectionForm(request.POST, game=game)
    saved, _changes = _save(request, game, form, rated_result=form.rated_value() if form.is_valid() else None)
    if saved:
        messages.success(request, _("The result has been saved."))
        return redirect(game)
    for message in form.non_field_errors() + form["result"].errors + form["rated_result"].errors:
        messages.error(request, message)
    return redirect(game)
