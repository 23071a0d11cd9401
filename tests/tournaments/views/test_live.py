"""Spectators' pairings and standings of a running round refresh themselves (htmx polling)."""

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Game, Result
from ratings.services import game_record_result

from .helpers import text

pytestmark = pytest.mark.django_db

PAGES = [("round", 1), ("standings", None)]


def url(tournament, name, number):
    args = [tournament.pk] + ([number] if number else [])
    return reverse(f"tournaments:{name}", args=args)


@pytest.mark.parametrize(("name", "number"), PAGES)
def test_a_running_round_polls_its_fragment_with_its_version(client, tournament, name, number):
    html = text(client.get(url(tournament, name, number)))
    assert 'hx-trigger="every 10s"' in html and "?fragment=1&amp;v=" in html


@pytest.mark.parametrize(("name", "number"), PAGES)
def test_an_unchanged_fragment_answers_204_and_a_changed_one_the_new_table(client, tournament, name, number):
    page = url(tournament, name, number)
    html = text(client.get(page))
    version = html.split('data-version="')[1].split('"')[0]
    assert client.get(page, {"fragment": 1, "v": version}).status_code == 204
    game = Game.objects.get(round__tournament=tournament, board=1)
    game_record_result(game=game, result=Result.WHITE_WINS, user=None)
    response = client.get(page, {"fragment": 1, "v": version})
    fragment = text(response)
    assert response.status_code == 200 and response["ETag"].strip('"') != version
    assert fragment.lstrip().startswith("<div id=\"live-") and "<html" not in fragment
    assert "Adler, Max" in fragment
    # The browser's own cache check: the ETag it holds is still current.
    assert client.get(page, {"fragment": 1}, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_a_finished_round_does_not_poll(client, tournament):
    Game.objects.filter(round__tournament=tournament).update(result=Result.DRAW, rated_result=Result.DRAW)
    html = text(client.get(url(tournament, "round", 1)))
    assert "hx-trigger" not in html and 'id="live-pairings"' in html
