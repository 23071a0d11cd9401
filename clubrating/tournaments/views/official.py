"""The officials' pages: create a tournament, register players, pair a round, change a pairing.

Registration and pairing are ``services`` (one transaction each, translated ``Refused`` when
refused); these views collect the input and report the outcome.
"""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubrating.accounts.permissions import official_required
from clubrating.core.errors import Refused
from ratings.selectors import pool_ratings, tournament_rating_pool
from ratings.services import games_redate

from .. import selectors, services
from ..errors import TournamentRefused
from ..forms import (
    MemberSearchForm,
    PairingForm,
    RegisterPlayersForm,
    RoundDateForm,
    ScheduleForm,
    StartRanksForm,
    TournamentForm,
)
from ..models import Game, Round, Tournament, TournamentKind
from ._league import not_a_league_division
from .public import tournament_context


@official_required
def tournament_create(request):
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
        return redirect("tournaments:register", pk=tournament.pk)
    return render(request, "tournaments/official/tournament_form.html", {"form": form})


# The picker shows this many candidates; a search narrows the rest down.
CANDIDATES_SHOWN = 100


@official_required
def players_register(request, pk):
    """The player picker (search, rating, birth year, club) and the starting numbers."""
    tournament = get_object_or_404(Tournament, pk=pk)
    search = MemberSearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    pool = tournament_rating_pool(tournament)
    action = request.POST.get("action", "register") if request.method == "POST" else ""
    form = RegisterPlayersForm(request.POST if action == "register" else None, tournament=tournament,
                               query=query)
    players = list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))
    ranks_form = StartRanksForm(request.POST if action == "ranks" else None, players=players)
    if action == "register" and form.is_valid():
        members = list(form.cleaned_data["members"])
        ratings = {m: r.published for m, r in pool_ratings(pool, [m.pk for m in members]).items()}
        try:
            services.players_register(tournament=tournament, members=members, ratings=ratings)
        except Refused as error:
            form.add_error(error.field or None, error.message)
        else:
            messages.success(request, _("%(count)d players registered.") % {"count": len(members)})
            return redirect(request.get_full_path())
    elif action in ("ranks", "by_rating"):
        try:
            if action == "by_rating":
                services.start_ranks_assign(tournament=tournament)
            elif ranks_form.is_valid():
                services.start_ranks_set(tournament=tournament, ranks=ranks_form.ranks())
            else:
                raise TournamentRefused(
                    _("Give every player a different starting number from 1 to %(count)d.")
                    % {"count": len(players)})
        except Refused as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The starting numbers have been saved."))
        return redirect(request.get_full_path())
    candidates = list(form.fields["members"].queryset[:CANDIDATES_SHOWN + 1])
    candidate_ratings = pool_ratings(pool, [m.pk for m in candidates])
    form.ratings_show(candidate_ratings)
    ratings = {m: r.published for m, r in candidate_ratings.items()}
    # Namesakes (the same first and last name) are marked: birth year and club tell them apart.
    names: dict[tuple, int] = {}
    for member in candidates:
        names[(member.last_name, member.first_name)] = names.get((member.last_name, member.first_name), 0) + 1
    chosen = {str(v) for v in form["members"].value() or []}
    # The name carries the published and the live rating (the published one is registered).
    label = form.fields["members"].label_from_instance
    rows = [{"member": m, "label": label(m), "rating": ratings.get(m.pk),
             "namesake": names[(m.last_name, m.first_name)] > 1,
             "checked": str(m.pk) in chosen} for m in candidates[:CANDIDATES_SHOWN]]
    return render(request, "tournaments/official/register.html", tournament_context(
        request, tournament, "register", form=form, search=search, players=players, query=query,
        candidates=rows, more=len(candidates) > CANDIDATES_SHOWN, ranks_form=ranks_form,
        pairing_started=selectors.last_paired_round_number(tournament=tournament) > 0))


@official_required
@not_a_league_division
def round_pair(request, pk):
    """Pair the next round (GET says what will happen, POST does it); a round robin's whole
    schedule at once (``_schedule``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if tournament.kind == TournamentKind.ROUND_ROBIN:
        return _schedule(request, tournament)
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
    check = selectors.round_pair_check(tournament=tournament)
    return render(request, "tournaments/official/pair.html", tournament_context(
        request, tournament, "pair", next_number=check.number, player_count=tournament.players.count(),
        form=form, rounds_total=selectors.rounds_planned(tournament), check=check,
        finished=check.all_paired and selectors.tournament_finished(tournament=tournament),
        unpairable=selectors.unpairable_round(tournament=tournament)))


def _schedule(request, tournament: Tournament):
    """A round robin's pair page: its whole Berger schedule with one date per round. Before the
    draw the dates default from the tournament's schedule and pairing draws every round; after
    it the paired rounds' dates are changed here, each with its games' rating records (as on
    the round page: all in one transaction, a refusal changes nothing)."""
    check = selectors.round_pair_check(tournament=tournament)
    dates = dict(tournament.rounds.values_list("number", "date"))
    last = check.last_paired
    to_pair = [(n, dates.get(n) or tournament.scheduled_date(n)) for n in range(last + 1, check.total + 1)]
    paired = [(n, dates.get(n)) for n in range(1, last + 1)]
    action = request.POST.get("action", "pair") if request.method == "POST" else None
    pair_form = ScheduleForm(request.POST if action == "pair" else None, rounds=to_pair, prefix="pair",
                             required=False)
    dates_form = ScheduleForm(request.POST if action == "dates" else None, rounds=paired, prefix="dates")
    if action == "pair" and pair_form.is_valid():
        try:
            rounds = services.schedule_pair(tournament=tournament, dates=pair_form.dates())
        except Refused as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Rounds %(first)d to %(last)d have been paired.") % {
                "first": rounds[0].number, "last": rounds[-1].number})
            return redirect("tournaments:pairings", pk=tournament.pk)
    elif action == "dates" and dates_form.is_valid():
        changed = {n: day for n, day in dates_form.dates().items() if day != dates.get(n)}
        try:
            with transaction.atomic():
                for rnd in tournament.rounds.filter(number__in=list(changed)).select_related("tournament"):
                    games_redate(game_ids=services.round_date_set(round=rnd, date=changed[rnd.number]))
        except Refused as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The dates of the schedule have been saved."))
            return redirect("tournaments:pair", pk=tournament.pk)
    return render(request, "tournaments/official/schedule.html", tournament_context(
        request, tournament, "pair", check=check, pair_form=pair_form, dates_form=dates_form,
        player_count=tournament.players.count(),
        finished=check.all_paired and selectors.tournament_finished(tournament=tournament),
        unpairable=selectors.unpairable_round(tournament=tournament)))


@official_required
@require_POST
@not_a_league_division
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
@not_a_league_division
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
@not_a_league_division
def pairing_swap_colours(request, pk, number, game_pk):
    """The commonest hand correction: the players of a board swap colours."""
    rnd = get_object_or_404(Round, tournament_id=pk, number=number)
    game = get_object_or_404(Game.objects.select_related("white", "black"), pk=game_pk, round=rnd)
    if _change_pairing(request, rnd, game, game.black, game.white):
        messages.success(request, _("Board %(board)d: colours swapped.") % {"board": game.board})
    return redirect(rnd)
