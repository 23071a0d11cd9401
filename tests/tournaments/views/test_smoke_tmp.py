import pytest
from django.urls import reverse
from clubrating.tournaments.models import Game

@pytest.mark.django_db
def test_smoke(official_client, tournament):
    g = Game.objects.get(round__tournament=tournament, board=1)
    for name, args in [("list", []), ("detail", [tournament.pk]), ("players", [tournament.pk]), ("pairings", [tournament.pk]),
                       ("standings", [tournament.pk]), ("crosstable", [tournament.pk]), ("evaluation", [tournament.pk]),
                       ("round", [tournament.pk, 1]), ("results", [tournament.pk, 1]), ("game", [g.pk]),
                       ("register", [tournament.pk]), ("pair", [tournament.pk]), ("create", []),
                       ("print", [tournament.pk, "standings"]), ("print", [tournament.pk, "crosstable"]),
                       ("round_print", [tournament.pk, 1]), ("standings_export", [tournament.pk, "csv"]),
                       ("pairing_edit", [tournament.pk, 1, g.pk])]:
        r = official_client.get(reverse("tournaments:" + name, args=args))
        assert r.status_code == 200, (name, r.status_code)
    r = official_client.post(reverse("tournaments:board_result", args=[tournament.pk, 1, g.pk]), {"result": "1-0", "seen": ""}, HTTP_HX_REQUEST="true")
    print(r.content.decode())
    r = official_client.get(reverse("tournaments:evaluation", args=[tournament.pk]))
    print(r.content.decode()[-4000:])
