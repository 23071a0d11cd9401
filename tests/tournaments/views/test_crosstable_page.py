"""A Swiss' crosstable page writes its rows in one pass (``_tables.ranked_crosstable`` with a
``link``): the very rows the table's lines give (which the exports and the PDF print), for every
kind of round, every reader and language; each user-typed text escaped."""

from html import escape

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from clubrating.accounts.templatetags.privacy import viewer_of
from clubrating.clubs.models import Member
from clubrating.tournaments.models import ByeKind, Result
from clubrating.tournaments.selectors import tournament_standings
from clubrating.tournaments.views import _tables
from clubrating.tournaments.views.public import _link
from tests.factories import (
    ByeFactory,
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

from .helpers import page, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(home_club):
    """Seven players over three rounds: wins, a draw, forfeits, a double forfeit, a game without
    result, a pairing-allocated, a half-point and a full-point bye; a club whose name needs
    escaping; one player without a starting number."""
    club = ClubFactory(name="SK <Turm> & Co")
    tournament = TournamentFactory(rounds_count=4, tiebreaks="BH/C1,BH,SB")
    members = [MemberFactory(last_name=f"Name{i}", first_name="<i>Vor</i>" if i == 2 else "Vor",
                             club=club if i % 2 else home_club) for i in range(7)]
    for rank, member in enumerate(members, start=1):
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=None if rank == 7 else rank,
                                rating=1500 + 10 * rank, fide_rating=None if rank == 2 else 1900 + rank)
    m, r = members, Result
    rounds = {
        1: ([(m[0], m[5], r.WHITE_WINS), (m[1], m[4], r.DRAW), (m[2], m[3], r.BLACK_FORFEIT_WIN)],
            [(m[6], ByeKind.PAIRING)]),
        2: ([(m[5], m[1], r.BLACK_WINS), (m[3], m[0], r.DOUBLE_FORFEIT), (m[4], m[6], r.WHITE_WINS)],
            [(m[2], ByeKind.HALF)]),
        3: ([(m[0], m[1], r.NOT_PLAYED), (m[2], m[6], r.WHITE_FORFEIT_WIN), (m[3], m[4], r.DRAW)],
            [(m[5], ByeKind.FULL)]),
    }
    for number, (games, byes) in rounds.items():
        rnd = RoundFactory(tournament=tournament, number=number)
        for board, (white, black, result) in enumerate(games, start=1):
            GameFactory(round=rnd, board=board, white=white, black=black, result=result)
        for member, kind in byes:
            ByeFactory(round=rnd, member=member, kind=kind)
    Member.objects.filter(pk=members[3].pk).update(profile_restricted=True)
    return tournament


@pytest.mark.parametrize("lang", ["en", "de-at"])
@pytest.mark.parametrize("reader", ["visitor", "official"])
def test_the_rows_are_those_of_the_table_s_lines(rf, swiss, official, lang, reader):
    request = rf.get("/")
    request.user = official if reader == "official" else AnonymousUser()
    link = _link(request)
    with translation.override(lang):
        club_of = viewer_of(request).club
        table = _tables.ranked_crosstable(swiss, round_robin=False, plain=True, club_of=club_of, link=link)
        lines = _tables.ranked_crosstable(swiss, round_robin=False, plain=True, club_of=club_of)
    # The rows as _crosstable.html and _progress.html print a table's lines.
    assert table.rows_html == "".join(
        f'<tr>{line.texts["head_html"]}<td class="player">{link(line.player.member)}</td>'
        f'{line.texts["tail_html"]}</tr>' for line in lines.lines)
    assert table.progress_rows_html == "".join(
        f'<tr>{line.texts["progress_head_html"]}<td class="player">{escape(str(line.player.member))}</td>'
        f'{line.texts["progress_tail_html"]}</tr>' for line in lines.lines)
    assert (table.codes, table.error, table.rounds) == (lines.codes, lines.error, lines.rounds)
    assert table.rows_html.count("<tr>") == table.progress_rows_html.count("<tr>") == 7
    assert "SK &lt;Turm&gt; &amp; Co" in table.rows_html
    assert "&lt;i&gt;Vor&lt;/i&gt;" in table.rows_html and "<i>Vor" not in table.rows_html


def test_the_leader_s_rows_as_the_page_prints_them(client, swiss):
    html = text(page(client, "crosstable", swiss.pk, lang="de-at"))
    rank = {row.player.member_id: row.rank for row in tournament_standings(tournament=swiss)}
    second, fourth, leader = (Member.objects.get(last_name=f"Name{i}") for i in (1, 3, 4))
    crosstable, progress = html.split('id="progress"')
    row = next(r for r in crosstable.split("<tr>") if f"/members/{leader.pk}/" in r)
    # 2 points: a draw with Black against start number 2, a win with White against the player
    # without a starting number (no rank to name), a draw with Black against start number 4.
    assert row.startswith('\n    <td class="num">1</td>\n    <td class="num d-none d-md-table-cell">5</td>')
    assert '<td class="num fw-bold col-pin-end">2,0</td>' in row
    cells = [cell.split("</td>")[0] for cell in row.split('<td class="text-center text-nowrap">')[1:]]
    assert cells == [f"{rank[second.pk]}s½", "1", f"{rank[fourth.pk]}s½"]
    row = next(r for r in progress.split("<tr>") if "Name4" in r)
    assert [cell.split("</td>")[0] for cell in row.split('<td class="num">')[2:]] == ["0,5", "1,5", "2,0"]
