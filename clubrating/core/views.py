from django.shortcuts import render

from clubrating.tournaments.models import Tournament


def home(request):
    tournaments = Tournament.objects.order_by("-start_date")[:10]
    return render(request, "home.html", {"tournaments": tournaments})
