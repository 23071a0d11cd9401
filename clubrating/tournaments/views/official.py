"""The officials' pages: create a tournament, register players, pair a round, change a pairing.

Registration and pairing are ``services`` (one transaction each, translated ``Refused`` when
refused); these views collect the input and report the outcome.
"""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.core.errors import Refused
from clubrating.core.permissions import official_required
from ratings.selectors import pool_ratings, tournament_rating_pool
from ratings.services import games_redate

from .. import selectors, services
from ..forms import MemberSearchForm, PairingForm, RegisterPlayersForm, RoundDateForm, TournamentForm
from ..models import Game, Round, Tournament
from .public import tournament_context


@official_required
def tournament_create(request):
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
        return redirect("tournaments:register", pk=tournament.pk)
    return render(request, "tournaments/official/tournament_form.html", {"form": form})


@official_required
def players_register(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    search = MemberSearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    pool = tournament_rating_pool(tournament)
    form = RegisterPlayersForm(request.POST if request.method == "POST" else None, tournament=tournament,
                               query=query)
    form.ratings_show(pool_ratings(pool, form.fields["members"].queryset.values("pk")))
    if request.method == "POST" and form.is_valid():
        members = list(form.cleaned_data["members"])
        ratings = {m: r.published for m, r in pool_ratings(pool, [m.pk for m in members]).items()}
        try:
            services.players_register(tournament=tournament, members=members, ratings=ratings)
        except Refused as error:
            form.add_error(error.field or None, error.message)
        else:
            messages.success(request, _("%(count)d players registered.") % {"count": len(members)})
            return redirect("tournaments:register", pk=tournament.pk)
    players = tournament.players.select_related("member", "member__club").order_by("start_rank", "pk")
    return render(request, "tournaments/official/register.html", tournament_context(
        request, tournament, "register", form=form, search=search, players=players, query=query))


@official_required
def round_pair(request, pk):
    """Pair the next round (GET says what will happen, POST does it)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    # Paired rounds, not rounds with games: a team round has only its matches until the lineups.
    last = selectors.last_paired_round_number(tournament=tournament)
    scheduled = tournament.rounds.filter(number=last + 1).values_list("date", flat=True).first()
    form = RoundDateForm(request.POST if request.method == "POST" else None,
                         initial={"date": scheduled or tournament.scheduled_date(last + 1)})
    form.fields["date"].required = False  # left empty: the tournament's schedule
    if request.method == "POST" and form.is_valid():
        try:
            rnd = services.round_pair(tournament=tournament, date=form.cleaned_data["date"])
        except Refused as error:
            messages.error(request, error.message)
            return redirect("tournaments:pair", pk=pk)
        messages.success(request, _("Round %(number)d has been paired.") % {"number": rnd.number})
        return redirect(rnd)
    return render(request, "tournaments/official/pair.html", tournament_context(
        request, tournament, "pair", next_number=last + 1, player_count=tournament.players.count(),
        form=form, rounds_total=selectors.rounds_planned(tournament)))


@official_required
@require_POST
def round_date(request, pk, number):
    """Move a round to another day. The round's games follow, and so do their rating records (to
    the rating period of the new date); both in one transaction, so a refusal changes nothing."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    form = RoundDateForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("date", []):
            messages.error(request, error)
        return redirect(rnd)
    try:
        with transaction.atomic():
            moved = services.round_date_set(round=rnd, date=form.cleaned_data["date"])
            games_redate(game_ids=moved)
    except Refused as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(number)d is now dated %(date)s.") % {
            "number": rnd.number, "date": form.cleaned_data["date"].strftime("%d.%m.%Y")})
    return redirect(rnd)


def _change_pairing(request, rnd: Round, game: Game, white, black) -> bool:
    try:
        services.game_pairing_change(game=game, white=white, black=black)
    except Refused as error:
        messages.error(request, error.message)
        return False
    return True


@official_required
def pairing_edit(request, pk, number, game_pk):
    """Change one board by hand; a player taken from another board swaps places (services)."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    game = get_object_or_404(Game.objects.select_related("white", "black", "round"), pk=game_pk, round=rnd)
    form = PairingForm(request.POST if request.method == "POST" else None, game=game)
    if request.method == "POST" and form.is_valid():
        if _change_pairing(request, rnd, game, form.cleaned_data["white"], form.cleaned_data["black"]):
            messages.success(request, _("Board %(board)d changed.") % {"board": game.board})
        return redirect(rnd)
    return render(request, "tournaments/official/pairing_form.html", tournament_context(
        request, rnd.tournament, "pairings", round=rnd, game=game, form=form))


@official_required
@require_POST
def pairing_swap_colours(request, pk, number, game_pk):
    """The commonest hand correction: the players of a board swap colours."""
    rnd = get_object_or_404(Round, tournament_id=pk, number=number)
    game = get_object_or_404(Game.objects.select_related("white", "black"), pk=game_pk, round=rnd)
    if _change_pairing(request, rnd, game, game.black, game.white):
        messages.success(request, _("Board %(board)d: colours swapped.") % {"board": game.board})
    return redirect(rnd)
