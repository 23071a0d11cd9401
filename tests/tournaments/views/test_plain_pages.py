"""The pairings page is drawn from plain rows (views/_pairings_html.py): it prints every board and
bye as the round's own table (``_games.html``) does, links each name as the privacy rule allows,
and reads the same number of queries for a small and a bigger tournament (more players, more
rounds)."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.clubs.models import Member
from clubrating.tournaments.models import ByeKind, Result
from tests.factories import ByeFactory, GameFactory, MemberFactory, RoundFactory, TournamentPlayerFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db


def _rows(html: str) -> list[str]:
    """The rows of the page's pairing tables, whitespace folded."""
    bodies = re.findall(r"<tbody>(.*?)</tbody>", html, flags=re.S)
    return [" ".join(row.split()) for body in bodies for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)]


def _add_round(tournament, number: int, results: list[str]) -> None:
    rnd = RoundFactory(tournament=tournament, number=number)
    members = tournament.members
    for board, result in enumerate(results, start=1):
        white, black = members[2 * board - 2], members[2 * board - 1]
        GameFactory(round=rnd, board=board, white=white, black=black, result=result)


@pytest.mark.parametrize("lang", ["en", "de-at"])
def test_every_board_and_bye_as_the_rounds_own_table_prints_it(client, tournament, lang):
    tournament.rounds.get(number=1).games.filter(board=1).update(result=Result.WHITE_WINS)
    tournament.rounds.get(number=1).games.filter(board=2).update(result=Result.DRAW)
    _add_round(tournament, 2, [Result.BLACK_FORFEIT_WIN, Result.NOT_PLAYED])
    guest = MemberFactory(last_name="Gast", first_name="Gustav <b>")
    zach = MemberFactory(last_name="Zach")
    GameFactory(round=tournament.rounds.get(number=2), board=3, white=guest, black=zach)
    extra = MemberFactory(last_name="Ebner")
    TournamentPlayerFactory(tournament=tournament, member=extra, start_rank=5, rating=1700)
    ByeFactory(round=tournament.rounds.get(number=2), member=extra, kind=ByeKind.HALF)
    Member.objects.filter(pk=tournament.members[1].pk).update(profile_restricted=True)

    pairings = _rows(text(page(client, "pairings", tournament.pk, lang=lang)))
    rounds = _rows(text(page(client, "round", tournament.pk, 1, lang=lang)))
    rounds += _rows(text(page(client, "round", tournament.pk, 2, lang=lang)))
    assert pairings == rounds
    assert len(pairings) == 6
    assert "Gustav &lt;b&gt;" in " ".join(pairings)
    assert f'href="/members/{tournament.members[1].pk}/"' not in " ".join(pairings)  # restricted
    assert f'href="/members/{tournament.members[0].pk}/"' in " ".join(pairings)


def _queries(client, name: str, pk: int) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert page(client, name, pk).status_code == 200
    return len(queries.captured_queries)


FACES = ["standings", "crosstable", "progress", "evaluation", "pairings"]


def test_queries_are_the_same_for_a_small_and_a_bigger_tournament(client, tournament):
    # A bye in each: the pairings read a round's byes again only where the round has any.
    ByeFactory(round=tournament.rounds.get(number=1), member=MemberFactory(), kind=ByeKind.HALF)
    small = {name: _queries(client, name, tournament.pk) for name in FACES}
    members = tournament.members
    for rank in range(5, 25):
        member = MemberFactory()
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, rating=1500 + rank)
        members.append(member)
    GameFactory(round=tournament.rounds.get(number=1), board=3, white=members[4], black=members[5],
                result=Result.DRAW)
    for number in (2, 3):
        _add_round(tournament, number, [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS] * 4)
    ByeFactory(round=tournament.rounds.get(number=3), member=members[-1], kind=ByeKind.PAIRING)
    bigger = {name: _queries(client, name, tournament.pk) for name in FACES}
    assert bigger == small


@pytest.mark.parametrize("lang", ["en", "de-at"])
def test_an_evaluation_row_without_its_calculation_as_the_template_prints_it(rf, tournament, lang):
    """A big tournament's rows (their calculation brought on demand) are drawn in Python
    (``_evaluation_html``); they read as the template draws them."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from clubrating.tournaments.views.public import evaluation_lines
    from ratings.selectors import tournament_evaluation_summary
    from ratings.services import game_record_result

    game = tournament.rounds.get(number=1).games.get(board=1)
    game_record_result(game=game, result=Result.WHITE_WINS)
    Member.objects.filter(pk=game.black_id).update(first_name="<script>\"&'")
    request = rf.get("/")
    request.user = AnonymousUser()
    with translation.override(lang):
        lines = evaluation_lines(tournament_evaluation_summary(tournament), player=None, show_all=False)
        assert all("html" in line for pool in lines for line in pool["lines"])
        drawn = render_to_string("tournaments/_evaluation_body.html", {"evaluations": lines}, request=request)
        assert all(pool["rows_html"] == "".join(line["html"] for line in pool["lines"]) for pool in lines)
        for pool in lines:
            pool["rows_html"] = ""
            for line in pool["lines"]:
                del line["html"]
        templated = render_to_string("tournaments/_evaluation_body.html", {"evaluations": lines},
                                     request=request)
    assert " ".join(drawn.split()) == " ".join(templated.split())
    assert "Adler, Max" in drawn
    assert "&lt;script&gt;&quot;&amp;&#x27;" in drawn and "<script>" not in drawn
