from django.db.models import Count, Prefetch
from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig

from .models import Bye, Game, Round, Tournament
from .tables import TournamentTable


def _games():
    return Game.objects.select_related("white", "black").order_by("board")


def tournament_list(request):
    tournaments = Tournament.objects.annotate(player_count=Count("players"))
    table = TournamentTable(tournaments)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "tournaments/tournament_list.html", {"table": table})


def tournament_detail(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = tournament.rounds.prefetch_related(
        Prefetch("games", queryset=_games()), Prefetch("byes", queryset=Bye.objects.select_related("member"))
    )
    players = tournament.players.select_related("member", "member__club").order_by("start_rank")
    return render(
        request, "tournaments/tournament_detail.html",
        {"tournament": tournament, "rounds": rounds, "players": players},
    )


def round_detail(request, pk, number):
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    return render(request, "tournaments/round_detail.html", {"round": rnd, "games": _games().filter(round=rnd)})


def game_detail(request, pk):
    game = get_object_or_404(
        Game.objects.select_related("white", "black", "round__tournament"), pk=pk
    )
    return render(request, "tournaments/game_detail.html", {"game": game})
