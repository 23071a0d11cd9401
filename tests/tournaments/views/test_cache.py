"""The tournament pages' tables are drawn once per version of what they show (views/_cache.py):
the next reader gets them from the cache, any change of the tournament's rows or of a member's
name shows at once, by whatever route it was made, and a browser that has the page gets a 304."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Game, Result
from ratings.services import game_record_result
from tests.factories import GameFactory, MemberFactory, TournamentPlayerFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db

FACES = ["standings", "crosstable", "progress", "evaluation", "pairings"]


def _queries(client, name, pk, **params) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = page(client, name, pk, **params)
    assert response.status_code == 200
    return text(response), len(queries.captured_queries)


def _unmasked(html: str) -> str:
    """The page without its form token (masked anew for every response)."""
    return re.sub(r'(CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*', r"\1", html)


def _points(html: str, name: str) -> str:
    """The points of ``name``'s row in the standings."""
    row = next(r for r in re.findall(r"<tr>.*?</tr>", html, flags=re.S) if name in r)
    return re.findall(r'<td class="num fw-bold">([^<]*)</td>', row)[0]


@pytest.mark.parametrize("name", FACES)
def test_the_second_reader_gets_the_table_from_the_cache(client, tournament, name):
    first, cold = _queries(client, name, tournament.pk)
    second, warm = _queries(client, name, tournament.pk)
    assert _unmasked(second) == _unmasked(first)
    assert warm < cold


def test_a_result_saved_shows_at_once_on_every_page(client, tournament):
    before = {name: text(page(client, name, tournament.pk)) for name in FACES}
    assert _points(text(page(client, "standings", tournament.pk)), "Adler, Max") == "0.0"
    game = Game.objects.get(round__tournament=tournament, board=1)
    game_record_result(game=game, result=Result.WHITE_WINS)  # the result entry's service
    after = {name: text(page(client, name, tournament.pk)) for name in FACES}
    assert all(_unmasked(after[name]) != _unmasked(before[name]) for name in FACES)
    html = text(page(client, "standings", tournament.pk))
    assert _points(html, "Adler, Max") == "1.0" and _points(html, "Berger, Max") == "0.0"
    assert ">1-0<" in text(page(client, "pairings", tournament.pk))
    crosstable = text(page(client, "crosstable", tournament.pk))
    adler = crosstable[crosstable.rindex("<tr>", 0, crosstable.index("Adler, Max")):]
    assert re.search(r">2w1<", adler[:adler.index("</tr>")])  # against Berger, ranked 2nd


def test_a_change_made_without_any_service_shows_at_once(client, tournament):
    """An import or the admin writes the rows directly: the version follows the rows."""
    page(client, "standings", tournament.pk)
    Game.objects.filter(round__tournament=tournament, board=2).update(result=Result.BLACK_WINS)
    html = text(page(client, "standings", tournament.pk))
    assert _points(html, "Dorn, Max") == "1.0" and _points(html, "Ced, Max") == "0.0"
    newcomer = MemberFactory(last_name="Eder", first_name="Eva")
    TournamentPlayerFactory(tournament=tournament, member=newcomer, start_rank=5, rating=1700)
    assert "Eder, Eva" in text(page(client, "standings", tournament.pk))
    Member.objects.filter(pk=tournament.members[0].pk).update(last_name="Aar")  # changed_at kept
    Member.objects.get(pk=tournament.members[0].pk).save()  # a member's edit stamps changed_at
    html = text(page(client, "crosstable", tournament.pk))
    assert "Aar, Max" in html and "Adler" not in html


def test_a_browser_with_the_page_gets_304_until_it_changes(client, tournament):
    for name in FACES:
        response = page(client, name, tournament.pk)
        etag = response.headers["ETag"]
        assert "no-cache" in response.headers["Cache-Control"]
        response = client.get(response.wsgi_request.get_full_path(), HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304, name
    etag = page(client, "standings", tournament.pk).headers["ETag"]
    GameFactory(round=tournament.rounds.get(number=1), board=3, white=MemberFactory(), black=MemberFactory())
    response = client.get(f"/tournaments/{tournament.pk}/standings/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response.headers["ETag"] != etag


def test_each_reader_gets_the_table_drawn_for_what_he_may_see(client, official_client, tournament):
    """A restricted profile's name is linked for officials only: an official's cached table is
    never served to a visitor."""
    restricted = tournament.members[1]
    Member.objects.filter(pk=restricted.pk).update(profile_restricted=True)
    Member.objects.get(pk=restricted.pk).save()
    link = f'href="/members/{restricted.pk}/"'
    assert link in text(page(official_client, "standings", tournament.pk))
    official_client.logout()
    assert link not in text(page(client, "standings", tournament.pk))


def test_queries_do_not_grow_with_the_players_cold_or_warm(client, tournament):
    cold = {name: _queries(client, name, tournament.pk)[1] for name in FACES}
    rnd = tournament.rounds.get(number=1)
    for board in range(3, 23):
        white, black = MemberFactory(), MemberFactory()
        TournamentPlayerFactory(tournament=tournament, member=white, start_rank=board * 2)
        TournamentPlayerFactory(tournament=tournament, member=black, start_rank=board * 2 + 1)
        GameFactory(round=rnd, board=board, white=white, black=black, result=Result.DRAW)
    for name in FACES:
        assert _queries(client, name, tournament.pk)[1] == cold[name], name
    warm = {name: _queries(client, name, tournament.pk)[1] for name in FACES}
    assert all(warm[name] < cold[name] for name in FACES), (warm, cold)
