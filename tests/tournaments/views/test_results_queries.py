"""The result-entry page and a board's save run a fixed number of queries, whatever the number of
boards (a federation's open has 140)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.tournaments.models import Game, Result, Round
from tests.factories import GameFactory, MemberFactory

pytestmark = pytest.mark.django_db


def _add_boards(tournament, count):
    rnd = Round.objects.get(tournament=tournament, number=1)
    first = Game.objects.filter(round=rnd).count() + 1
    for board in range(first, first + count):
        GameFactory(round=rnd, board=board, white=MemberFactory(), black=MemberFactory(),
                    result=Result.NOT_PLAYED)


def _page_queries(client, tournament) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("tournaments:results", args=[tournament.pk, 1]))
    assert response.status_code == 200
    return len(queries)


def test_the_round_page_runs_as_many_queries_for_40_boards_as_for_2(official_client, tournament):
    few = _page_queries(official_client, tournament)
    _add_boards(tournament, 38)
    assert _page_queries(official_client, tournament) == few


def test_a_save_runs_as_many_queries_with_40_boards_as_with_2(official_client, tournament):
    def save_queries(board):
        game = Game.objects.get(round__tournament=tournament, board=board)
        url = reverse("tournaments:board_result", args=[tournament.pk, 1, game.pk])
        with CaptureQueriesContext(connection) as queries:
            official_client.post(url, {"result": Result.DRAW, "seen": game.result}, HTTP_HX_REQUEST="true")
        game.refresh_from_db()
        assert game.result == Result.DRAW
        return len(queries)

    few = save_queries(1)
    _add_boards(tournament, 38)
    assert save_queries(2) == few
