"""The officials' pages: create a tournament, register players, pair a round, change a pairing.

Registration and pairing are the tournaments engineer's services (``services.py``); these views
only collect the input and report the outcome.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.core.permissions import official_required

from ..forms import MemberSearchForm, PairingForm, RegisterPlayersForm, TournamentForm
from ..models import Game, Round, Tournament, TournamentPlayer
from .public import tournament_context


def _service(name: str):
    try:
        from clubrating.tournaments import services
    except ImportError:
        return None
    return getattr(services, name, None)


@official_required
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
        return redirect("tournaments:register", pk=tournament.pk)
    return render(request, "tournaments/official/tournament_form.html", {"form": form})


def _register_fallback(tournament: Tournament, members) -> None:
    """Append members in the order given; the services module orders by rating when present."""
    with transaction.atomic():
        last = tournament.players.aggregate(last=Max("start_rank"))["last"] or 0
        for offset, member in enumerate(members, start=1):
            TournamentPlayer.objects.create(tournament=tournament, member=member, start_rank=last + offset,
                                            fide_rating=member.fide_rating)


@official_required
def players_register(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    search = MemberSearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    form = RegisterPlayersForm(request.POST or None, tournament=tournament, query=query)
    if request.method == "POST" and form.is_valid():
        members = list(form.cleaned_data["members"])
        service = _service("players_register")
        try:
            if service is not None:
                service(tournament=tournament, members=members)
            else:
                _register_fallback(tournament, members)
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("%(count)d players registered.") % {"count": len(members)})
            return redirect("tournaments:register", pk=tournament.pk)
    players = tournament.players.select_related("member", "member__club").order_by("start_rank", "pk")
    return render(request, "tournaments/official/register.html", tournament_context(
        request, tournament, "register", form=form, search=search, players=players, query=query))


@official_required
def round_pair(request, pk):
    """Pair the next round (GET shows what will happen, POST does it)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    next_number = (tournament.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
    if request.method == "POST":
        service = _service("round_pair")
        if service is None:
            messages.error(request, _("Pairing is not available in this installation yet."))
            return redirect("tournaments:pair", pk=pk)
        try:
            rnd = service(tournament=tournament)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect("tournaments:pair", pk=pk)
        number = getattr(rnd, "number", next_number)
        messages.success(request, _("Round %(number)d has been paired.") % {"number": number})
        return redirect("tournaments:round", pk=pk, number=number)
    return render(request, "tournaments/official/pair.html", tournament_context(
        request, tournament, "pair", next_number=next_number,
        all_paired=next_number > tournament.rounds_count,
        player_count=tournament.players.count(),
    ))


@official_required
def pairing_edit(request, pk, number, game_pk):
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    game = get_object_or_404(Game.objects.select_related("white", "black", "round"), pk=game_pk, round=rnd)
    if Game.objects.filter(round=rnd).exclude(result="").exists():
        messages.error(request, _("This round already has results; its pairing cannot be changed."))
        return redirect(rnd)
    form = PairingForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        service = _service("game_pairing_change")
        if service is not None:
            service(game=game, white=form.cleaned_data["white"], black=form.cleaned_data["black"])
        else:
            game.white = form.cleaned_data["white"]
            game.black = form.cleaned_data["black"]
            game.save(update_fields=["white", "black"])
        messages.success(request, _("Board %(board)d changed.") % {"board": game.board})
        return redirect(rnd)
    return render(request, "tournaments/official/pairing_form.html", tournament_context(
        request, rnd.tournament, "pairings", round=rnd, game=game, form=form))


@official_required
@require_POST
def pairing_swap_colours(request, pk, number, game_pk):
    """The commonest hand correction: the players of a board swap colours."""
    rnd = get_object_or_404(Round, tournament_id=pk, number=number)
    game = get_object_or_404(Game, pk=game_pk, round=rnd)
    if Game.objects.filter(round=rnd).exclude(result="").exists():
        messages.error(request, _("This round already has results; its pairing cannot be changed."))
        return redirect(rnd)
    game.white_id, game.black_id = game.black_id, game.white_id
    # Two statements would pass through a state that violates "white once per round" only if
    # the same player stood on both sides, which the model forbids; one UPDATE suffices.
    Game.objects.filter(pk=game.pk).update(white_id=game.white_id, black_id=game.black_id)
    messages.success(request, _("Board %(board)d: colours swapped.") % {"board": game.board})
    return redirect(rnd)
