from django.shortcuts import get_object_or_404, render

from .models import Game, Round, Tournament


def tournament_list(request):
    return render(request, "tournaments/tournament_list.html", {"tournaments": Tournament.objects.all()})


def tournament_detail(request, pk):
    return render(request, "tournaments/tournament_detail.html", {"tournament": get_object_or_404(Tournament, pk=pk)})


def round_detail(request, pk, number):
    rnd = get_object_or_404(Round, tournament_id=pk, number=number)
    return render(request, "tournaments/round_detail.html", {"round": rnd})


def game_detail(request, pk):
    return render(request, "tournaments/game_detail.html", {"game": get_object_or_404(Game, pk=pk)})
