"""Pages every visitor may read if the home club makes tournaments public."""

from django.db.models import Count, Prefetch
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from clubrating.core.permissions import is_official, public_tournaments_required
from ratings.selectors import game_rating_changes, tournament_rating_pool
from ratings.selectors import tournament_evaluation as rating_evaluation

from .. import selectors
from ..forms import CorrectionForm, RoundDateForm
from ..models import Bye, Game, Round, Tournament, TournamentKind
from ..tables import TournamentTable
from . import _standings, _tables


def games_queryset():
    return Game.objects.select_related("white", "black").order_by("board")


def national_label(tournament: Tournament) -> str:
    """The heading of the national rating column: the name of the pool that rates the tournament
    (its registered ratings are that pool's); FIDE has a column of its own."""
    pool = tournament_rating_pool(tournament)
    return pool.name if pool is not None else gettext("National")


def tournament_context(request, tournament: Tournament, tab: str, **extra) -> dict:
    """What the tournament's tab bar needs on every page, and the rating columns' heading."""
    return {
        "tournament": tournament, "tab": tab, "official": is_official(request.user),
        "national_label": national_label(tournament),
        "round_numbers": list(tournament.rounds.values_list("number", flat=True)),
        "is_round_robin": tournament.kind == TournamentKind.ROUND_ROBIN,
        **extra,
    }


@public_tournaments_required
def tournament_list(request):
    tournaments = Tournament.objects.annotate(player_count=Count("players"))
    table = TournamentTable(tournaments)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "tournaments/tournament_list.html",
                  {"table": table, "official": is_official(request.user)})


@public_tournaments_required
def tournament_detail(request, pk):
    """Overview: the facts, the starting list and the latest round."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer_club"), pk=pk)
    players = list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))
    latest = tournament.rounds.order_by("-number").first()
    games = list(games_queryset().filter(round=latest)) if latest else []
    counts = {
        "players": len(players),
        "rounds": selectors.last_paired_round_number(tournament=tournament),
        "rounds_total": selectors.rounds_planned(tournament),
        "games": Game.objects.filter(round__tournament=tournament).exclude(result="").count(),
    }
    return render(request, "tournaments/tournament_detail.html", tournament_context(
        request, tournament, "overview", counts=counts, players=players, latest=latest, games=games,
        byes=latest.byes.select_related("member") if latest else [],
    ))


@public_tournaments_required
def tournament_players(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    players = tournament.players.select_related("member", "member__club").order_by("start_rank", "pk")
    return render(request, "tournaments/players.html",
                  tournament_context(request, tournament, "players", players=players))


@public_tournaments_required
def tournament_pairings(request, pk):
    """All rounds' pairings on one page."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = tournament.rounds.prefetch_related(
        Prefetch("games", queryset=games_queryset()),
        Prefetch("byes", queryset=Bye.objects.select_related("member")),
    )
    return render(request, "tournaments/pairings.html",
                  tournament_context(request, tournament, "pairings", rounds=rounds))


@public_tournaments_required
def round_detail(request, pk, number):
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    games = list(games_queryset().filter(round=rnd))
    byes = rnd.byes.select_related("member")
    context = tournament_context(request, rnd.tournament, "pairings", round=rnd, games=games, byes=byes)
    # A pairing can be changed by hand only before the round has any result.
    context["edit_pairing"] = context["official"] and not any(g.result for g in games)
    if context["official"]:
        day = rnd.date or rnd.tournament.scheduled_date(number)
        context["date_form"] = RoundDateForm(initial={"date": day})
    return render(request, "tournaments/round_detail.html", context)


@public_tournaments_required
def tournament_standings(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    codes, rows, error = _standings.standings(tournament)
    return render(request, "tournaments/standings.html", tournament_context(
        request, tournament, "standings", codes=codes, rows=rows, error=error))


@public_tournaments_required
def tournament_crosstable(request, pk):
    """Crosstable for a round robin, progress table for every other kind."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = tournament_context(request, tournament, "crosstable")
    if context["is_round_robin"]:
        context["lines"] = _tables.crosstable(tournament)
    else:
        context["lines"] = selectors.tournament_crosstable(tournament=tournament)
        context["rounds"] = [cell.round for cell in context["lines"][0].cells] if context["lines"] else []
    return render(request, "tournaments/crosstable.html", context)


@public_tournaments_required
def tournament_evaluation(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "tournaments/evaluation.html", tournament_context(
        request, tournament, "evaluation", evaluations=rating_evaluation(tournament)))


@public_tournaments_required
def game_detail(request, pk):
    game = get_object_or_404(Game.objects.select_related("white", "black", "round__tournament"), pk=pk)
    official = is_official(request.user)
    context = {
        "game": game, "tournament": game.round.tournament, "official": official,
        "changes": game_rating_changes([game.pk]).get(game.pk, []),
    }
    if official:
        context["history"] = game.history.select_related("changed_by").order_by("-changed_at", "-pk")
        context["form"] = CorrectionForm(game=game)
    return render(request, "tournaments/game_detail.html", context)
