"""The director's registration pages: withdrawals, requested byes, guests, and taking back the
pairing of the last round.

The rules (which round may still change, who is a guest's club) are ``services``; a refusal is
shown as the form's error and changes nothing.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.accounts.permissions import official_required
from clubrating.core.errors import Refused

from .. import selectors, services
from ..forms_teams import ByeRequestForm, GuestForm, WithdrawForm
from ..models import Bye, ByeKind, Round, Tournament, TournamentKind
from ._league import not_a_league_division
from .public import tournament_context


def _manage_page(request, tournament: Tournament, *, withdraw=None, bye=None, status: int = 200):
    players = tournament.players.select_related("member", "member__club").order_by("start_rank", "pk")
    requested = Bye.objects.filter(round__tournament=tournament).exclude(kind=ByeKind.PAIRING)
    byes: dict[int, list[Bye]] = {}
    for item in requested.select_related("round").order_by("round__number"):
        byes.setdefault(item.member_id, []).append(item)
    rows = [(p, byes.get(p.member_id, [])) for p in players]
    is_swiss = tournament.kind == TournamentKind.SWISS
    return render(request, "tournaments/official/players_manage.html", tournament_context(
        request, tournament, "players", rows=rows, is_swiss=is_swiss,
        withdraw_form=withdraw or WithdrawForm(tournament=tournament),
        bye_form=(bye or ByeRequestForm(tournament=tournament)) if is_swiss else None,
    ), status=status)


def _refused(form, error: Refused) -> None:
    form.add_error(error.field or None, error.message)


@official_required
def players_manage(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    return _manage_page(request, tournament)


@official_required
@require_POST
def player_withdraw(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    form = WithdrawForm(request.POST, tournament=tournament)
    if form.is_valid():
        player, number = form.cleaned_data["player"], form.cleaned_data["from_round"]
        try:
            services.player_withdraw(player=player, from_round=number, user=request.user)
        except Refused as error:
            _refused(form, error)
        else:
            messages.success(request, _("%(member)s is not paired any more from round %(number)d on.")
                             % {"member": player.member, "number": number})
            return redirect("tournaments:players_manage", pk=pk)
    return _manage_page(request, tournament, withdraw=form)


@official_required
@require_POST
def bye_request(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    form = ByeRequestForm(request.POST, tournament=tournament)
    if form.is_valid():
        player, number = form.cleaned_data["player"], form.cleaned_data["round_number"]
        try:
            bye = services.bye_request(player=player, round_number=number, kind=form.cleaned_data["kind"])
        except Refused as error:
            _refused(form, error)
        else:
            messages.success(request, _("%(member)s: %(kind)s in round %(number)d.") % {
                "member": player.member, "kind": bye.get_kind_display(), "number": number})
            return redirect("tournaments:players_manage", pk=pk)
    return _manage_page(request, tournament, bye=form)


@official_required
def guest_register(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    form = GuestForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.guest_register(tournament=tournament, **form.cleaned_data)
        except Refused as error:
            _refused(form, error)
        else:
            messages.success(request, _("%(member)s registered as starting number %(rank)d.") % {
                "member": player.member, "rank": player.start_rank})
            return redirect("tournaments:register", pk=pk)
    return render(request, "tournaments/official/guest_form.html",
                  tournament_context(request, tournament, "register", form=form))


def _last_paired_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(selectors.paired_round_q()).distinct().order_by("-number").first()


@official_required
@not_a_league_division
def round_unpair(request, pk):
    """Take back the last round's pairing (GET asks, POST does it); refused once it has results."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rnd = _last_paired_round(tournament)
    if request.method == "POST" and rnd is not None:
        try:
            services.round_unpair(round=rnd)
        except Refused as error:
            messages.error(request, error.message)
            return redirect("tournaments:unpair", pk=pk)
        messages.success(request, _("The pairing of round %(number)d has been removed.") % {
            "number": rnd.number})
        return redirect("tournaments:pair", pk=pk)
    return render(request, "tournaments/official/unpair.html", tournament_context(
        request, tournament, "pair", last_round=rnd,
        unpairable=rnd is not None and selectors.unpairable_round(tournament=tournament) == rnd))
