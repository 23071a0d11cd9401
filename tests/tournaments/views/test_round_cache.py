"""A round's page for readers is drawn from plain rows (views/_pairings_html.py) once per version of
the tournament (views/_cache.py): it prints the same table as the officials' page (drawn from the
games), a save shows at once, a browser that has the page gets a 304, a withdrawal or a member's
privacy change draws it anew."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Game, Result
from ratings.services import game_record_result
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentPlayerFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db


def _rows(html: str) -> list[str]:
    """The pairing table's rows, whitespace folded."""
    body = re.findall(r"<tbody>(.*?)</tbody>", html, flags=re.S)[0]
    return [" ".join(row.split()) for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)]


def _queries(client, *args) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = page(client, "round", *args)
    assert response.status_code == 200
    return text(response), len(queries.captured_queries)


@pytest.mark.parametrize("lang", ["en", "de-at"])
def test_a_reader_gets_the_table_the_officials_page_prints(client, official_client, tournament, lang):
    game_record_result(game=Game.objects.get(round__tournament=tournament, board=1), result=Result.WHITE_WINS)
    game_record_result(game=Game.objects.get(round__tournament=tournament, board=2), result=Result.DRAW)
    Member.objects.filter(pk=tournament.members[3].pk).update(first_name="Max <b>")
    official = _rows(text(page(official_client, "round", tournament.pk, 1, lang=lang)))
    official_client.logout()
    reader = _rows(text(page(client, "round", tournament.pk, 1, lang=lang)))
    assert reader == official
    assert len(reader) == 2
    assert ">1-0</a>" in reader[0] and ">½-½</a>" in reader[1]
    assert "Dorn, Max &lt;b&gt;" in reader[1]
    assert f'href="/members/{tournament.members[0].pk}/">Adler, Max</a>' in reader[0]


def test_a_round_without_boards_says_so(client, tournament):
    RoundFactory(tournament=tournament, number=2)
    assert _rows(text(page(client, "round", tournament.pk, 2))) == [
        '<tr><td colspan="10" class="text-muted">No pairings yet.</td></tr>']


def test_the_second_reader_gets_the_table_from_the_cache_and_a_save_shows_at_once(client, tournament):
    first, cold = _queries(client, tournament.pk, 1)
    second, warm = _queries(client, tournament.pk, 1)
    assert _rows(second) == _rows(first) and warm < cold
    assert ">–</a>" in _rows(first)[0]
    game_record_result(game=Game.objects.get(round__tournament=tournament, board=1), result=Result.BLACK_WINS)
    assert ">0-1</a>" in _rows(text(page(client, "round", tournament.pk, 1)))[0]


def test_a_browser_with_the_page_gets_304_until_it_changes(client, tournament):
    url = f"/tournaments/{tournament.pk}/round/1/"
    response = page(client, "round", tournament.pk, 1)
    assert response.wsgi_request.path == url
    etag = response.headers["ETag"]
    assert "no-cache" in response.headers["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A withdrawal is a change of the tournament's rows: the page is drawn anew.
    tournament.players.filter(member=tournament.members[2]).update(withdrawn_from_round=2)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response.headers["ETag"] != etag
    etag = response.headers["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A member restricting his profile: his name is no longer linked for visitors.
    member = Member.objects.get(pk=tournament.members[0].pk)
    member.profile_restricted = True
    member.save()
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert f'href="/members/{member.pk}/"' not in text(response)
    assert ">Adler, Max<" in text(response)


def test_queries_do_not_grow_with_the_players(client, tournament):
    cold = _queries(client, tournament.pk, 1)[1]
    rnd = tournament.rounds.get(number=1)
    for board in range(3, 23):
        white, black = MemberFactory(), MemberFactory()
        TournamentPlayerFactory(tournament=tournament, member=white, start_rank=board * 2)
        TournamentPlayerFactory(tournament=tournament, member=black, start_rank=board * 2 + 1)
        GameFactory(round=rnd, board=board, white=white, black=black, result=Result.DRAW)
    html, again = _queries(client, tournament.pk, 1)
    assert again == cold and len(_rows(html)) == 22
