import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from clubrating.tournaments import services
from clubrating.tournaments.models import Result, TournamentKind
from tests.factories import MemberFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    """Four players, Berger table: R1 A-D 1-0, B-C ½; R2 D-C 0-1, A-B ½; R3 B-D 1-0, C-A 0-1."""
    t = TournamentFactory(name="Klubmeisterschaft 2025", kind=TournamentKind.ROUND_ROBIN, rounds_count=3,
                          tiebreaks="SB,WIN")
    names = [("Anna", 2000, 1001), ("Bernd", 1900, 1002), ("Clara", 1800, None), ("Dora", 1700, 1004)]
    services.players_register(tournament=t, members=[
        MemberFactory(last_name=n, first_name="X", fide_rating=r, fide_id=f) for n, r, f in names])
    results = [[Result.WHITE_WINS, Result.DRAW], [Result.BLACK_WINS, Result.DRAW],
               [Result.WHITE_WINS, Result.BLACK_WINS]]
    for per_round in results:
        rnd = services.round_pair(tournament=t)
        for game, result in zip(rnd.games.order_by("board"), per_round):
            game.result = game.rated_result = result
            game.save()
    return t


def run(*args) -> str:
    out = StringIO()
    with translation.override("en"):
        call_command("standings", *args, stdout=out)
    return out.getvalue()


def test_json_by_name(tournament):
    data = json.loads(run("Klubmeisterschaft 2025", "--tiebreaks", "DE,SB,WIN,BWG,KS", "--json"))
    # Points A 2.5, B 2, C 1.5, D 0. SB A: 0x1 + 2x½ + 1.5x1 = 2.5; B: 1.5x½ + 2.5x½ + 0x1 = 2;
    # C: 2x½ + 0x1 + 2.5x0 = 1. BWG: A won C-A, C won D-C. KS (>= 1.5 of 3): A ½ + 1, B ½ + ½,
    # C ½ (against B). No ties, so DE is 0.
    assert data == [
        {"rank": 1, "name": "Anna, X", "fide_id": 1001, "points": 2.5, "tiebreaks": [0, 2.5, 2, 1, 1.5]},
        {"rank": 2, "name": "Bernd, X", "fide_id": 1002, "points": 2, "tiebreaks": [0, 2, 1, 0, 1]},
        {"rank": 3, "name": "Clara, X", "fide_id": None, "points": 1.5, "tiebreaks": [0, 1, 1, 1, 0.5]},
        {"rank": 4, "name": "Dora, X", "fide_id": 1004, "points": 0, "tiebreaks": [0, 0, 0, 0, 0]},
    ]


def test_table_by_id_with_the_tournaments_own_tiebreaks(tournament):
    lines = run(str(tournament.pk)).splitlines()
    assert lines[0].split() == ["Rank", "Name", "Points", "SB", "WIN"]
    assert lines[1].split() == ["1", "Anna,", "X", "2.5", "2.50", "2"]
    assert len(lines) == 5


def test_table_in_german(tournament):
    out = StringIO()
    with translation.override("de-at"):
        call_command("standings", str(tournament.pk), stdout=out)
    assert out.getvalue().splitlines()[0].split() == ["Rang", "Name", "Punkte", "SB", "WIN"]


@pytest.mark.parametrize("args, message", [
    (["Nope"], "No tournament"),
    (["Klubmeisterschaft 2025", "--tiebreaks", "BH,XYZ"], "XYZ"),
])
def test_bad_input(tournament, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
