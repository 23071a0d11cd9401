"""The member page: ratings per pool, history chart, rated games with their calculation,
performance per tournament, half rating; who may see it; its query count."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.factories import GameFactory, MemberFactory, RoundFactory
from tests.language import speak

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_user(rated_club):
    user = User.objects.create_user("anna", password="pw")
    rated_club["anna"].user = user
    rated_club["anna"].save(update_fields=["user"])
    return user


def page(client, member):
    return client.get(reverse("clubs:member_detail", args=[member.pk]))


def test_member_sees_his_ratings_chart_and_games_in_german(client, rated_club, anna_user):
    client.force_login(anna_user)
    Club.objects.filter(is_home=True).update(public_ratings=False)
    response = page(client, rated_club["anna"])
    assert response.status_code == 200
    html = response.content.decode()
    # Published 1835 (+5 in the spring), live 1843 (+8 in the open period), provisional.
    # Ratings are never digit-grouped (1835, not 1.835).
    # On a phone the published rating gives way; the live rating and its change stay.
    assert '<td class="text-end d-none d-sm-table-cell">1835</td>' in html
    assert '<td class="text-end">1843 <span class="badge text-bg-warning">vorläufig</span></td>' in html
    assert '<td class="text-end">+8</td>' in html
    # The chart: server-side SVG with axis labels and one point per list plus the live value.
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart"' in html
    assert ">Datum</text>" in html and ">Wertung</text>" in html
    assert "<title>Standard, Liste vom 01.07.2026: 1835</title>" in html
    assert "<title>Standard, live (vorläufig): 1843</title>" in html
    assert "<script" not in html.split('id="rating-chart"')[1].split("</figure>")[0]
    # The spring game with its calculation: 1830 vs 1980, D -150, E 0.300, F 24.65, +4.94 (shown to
    # one decimal, as every change not yet rounded).
    spring = html.split(">01.03.2026</td>")[1].split("</tr>")[0]
    for cell in ("Huber, Bernd", ">Weiß</td>", ">0,5<", ">1830<", ">1980<", ">−150<", ">0,300<",
                 ">24,65<",
                 ">+4,9<"):
        assert cell in spring
    autumn = html.split(">01.09.2026</td>")[1].split("</tr>")[0]
    for cell in ("Moser, Clara", ">1<", ">1835<", ">1700<", ">+135<", ">0,682<", ">24,49<", ">+7,8<"):
        assert cell in autumn
    # Performance per tournament (exact): 1980 + dp(0.50) = 1980; 1700 + dp(1.00) = 2500; each
    # with the one rated game it rests on.
    narrow = "text-end d-none d-sm-table-cell"  # columns a phone leaves out
    one = '<span class="small text-muted rp-games" title="gewertete Partien, auf denen sie beruht">(1)</span>'
    assert (f'Frühjahrsturnier 2026</a></td>\n      <td class="{narrow}">1</td>\n'
            f'      <td class="text-end">0,5</td>\n      <td class="{narrow}">1980</td>\n'
            f'      <td class="{narrow}"><span class="rp">1980</span> {one}</td>') in html
    assert (f'<td class="{narrow}">1700</td>\n'
            f'      <td class="{narrow}"><span class="rp">2500</span> {one}') in html
    # No FIDE rating and one game against a FIDE-rated opponent: no half rating yet (§1.9).
    assert "Noch nicht: eine Halbzahl braucht mindestens 4 gewertete Partien" in html
    assert "Ergebnis gegen Gegner mit FIDE-Elo: 0,5 aus 1 Partie, Gegnerschnitt 2010." in html


def test_member_page_in_english(english, rated_club, anna_user):
    english.force_login(anna_user)
    html = page(english, rated_club["anna"]).content.decode()
    assert '<td class="text-end">1843 <span class="badge text-bg-warning">provisional</span></td>' in html
    assert "<title>Rating history of Berger, Anna</title>" in html
    assert ">Date</text>" in html
    assert ">2026-03-01</td>" in html
    assert ">0.300<" in html and ">24.65<" in html and ">+4.9<" in html
    assert "Score against FIDE-rated opponents: 0.5 from 1 game, opponents' average 2010." in html


def test_half_rating_with_four_games_against_fide_rated_opponents(client, rated_club):
    clara = rated_club["clara"]  # no FIDE rating
    opponents = [MemberFactory(fide_rating=rating) for rating in (1900, 2000, 2100, 2000)]
    for number, (opponent, result) in enumerate(zip(opponents, ["1-0", "1-0", "1/2", "0-1"]), start=2):
        rnd = RoundFactory(tournament=rated_club["autumn"], number=number)
        game = GameFactory(round=rnd, board=1, white=clara, black=opponent, result=Result.NOT_PLAYED)
        game_record_result(game=game, result=result)
    html = page(client, clara).content.decode()
    # 2.5 of 4 against an average of 2000 (the 0 of the loss to Anna has no FIDE rating):
    # 50 % + one half point -> 2000 + 12.5 = 2012.5 -> 2013, valid until 30.6.2028.
    assert "<strong>2013</strong>, gültig bis 30.06.2028." in html


def test_member_page_permissions(client, rated_club, anna_user, plain_user, official, officer):
    anna = rated_club["anna"]
    Club.objects.filter(is_home=True).update(public_ratings=False)
    response = page(client, anna)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/members/{anna.pk}/"
    client.force_login(plain_user)
    assert page(client, anna).status_code == 403
    for user in (anna_user, official, officer, User.objects.create_user("staff", is_staff=True)):
        client.force_login(user)
        assert page(client, anna).status_code == 200, user
    client.logout()
    Club.objects.filter(is_home=True).update(public_ratings=True)
    assert page(client, anna).status_code == 200


def test_member_page_queries_do_not_grow_with_games(client, rated_club):
    anna = rated_club["anna"]
    with CaptureQueriesContext(connection) as few:
        assert page(client, anna).status_code == 200
    for number in range(2, 12):
        rnd = RoundFactory(tournament=rated_club["autumn"], number=number,
                           date=datetime.date(2026, 9, number))
        game = GameFactory(round=rnd, board=1, white=anna, black=MemberFactory(), result=Result.NOT_PLAYED)
        game_record_result(game=game, result=Result.DRAW)
    with CaptureQueriesContext(connection) as many:
        html = page(client, anna).content.decode()
    assert html.count(">Herbstturnier 2026</a>") == 1 + 11  # its performance row and 11 games
    assert len(many) == len(few)


def test_member_page_query_bound(client, rated_club, django_assert_max_num_queries):
    with django_assert_max_num_queries(10):
        page(client, rated_club["anna"])


def test_member_list_still_works(client, rated_club):
    html = client.get(reverse("clubs:member_list"), {"q": "Berger"}).content.decode()
    assert "Berger, Anna" in html and "Huber" not in html


def fide_cell(html: str, name: str) -> str:
    row = html[html.index(name):]
    row = row[:row.index("</tr>")]
    return re.findall(r'<td class="[^"]*\bnum\b[^"]*">([^<]*)</td>', row)[0]


def test_member_list_fide_ratings_are_not_grouped(client, english, rated_club):
    # Bernd's FIDE rating 2010 read "2.010" (German) and "2,010" (English).
    assert fide_cell(client.get(reverse("clubs:member_list")).content.decode(), "Huber, Bernd") == "2010"
    assert fide_cell(english.get(reverse("clubs:member_list")).content.decode(), "Huber, Bernd") == "2010"


@pytest.mark.parametrize(("lang", "message"), [
    ("de-at", "Keine Mitglieder gefunden für „Zander“."), ("en", "No members found for “Zander”."),
])
def test_an_empty_member_search_says_so(client, rated_club, lang, message):
    html = speak(client, lang).get(reverse("clubs:member_list"), {"q": "Zander"}).content.decode()
    assert message in html
    assert "<tbody" in html and "Berger" not in html


def test_an_empty_member_search_escapes_the_query(client, rated_club):
    html = client.get(reverse("clubs:member_list"), {"q": "<b>x</b>"}).content.decode()
    assert "Keine Mitglieder gefunden für „&lt;b&gt;x&lt;/b&gt;“." in html


@pytest.mark.db_specific
def test_member_page_ratings_come_from_the_cache_until_a_rating_changes(client, rated_club):
    anna = rated_club["anna"]
    first = page(client, anna).content.decode().split("<main")[1]
    with CaptureQueriesContext(connection) as cached:
        assert page(client, anna).content.decode().split("<main")[1] == first
    # The member and the own club, then the latest change of a member and of a club (the cache
    # key; one prepared statement on PostgreSQL): the ratings, chart and games are the cached HTML.
    changes = (["clubs_member", "clubs_club"] if connection.vendor == "postgresql"
               else ['"clubs_member"', '"clubs_club"'])
    assert [re.findall(r' FROM ("?\w+"?)', q["sql"]) for q in cached] == [
        ['"clubs_member"'], ['"clubs_club"'],
        *([changes] if connection.vendor == "postgresql" else [[table] for table in changes])]
    rnd = RoundFactory(tournament=rated_club["autumn"], number=2, date=datetime.date(2026, 9, 2))
    game = GameFactory(round=rnd, board=1, white=anna, black=MemberFactory(), result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.DRAW)
    assert page(client, anna).content.decode().count(">Herbstturnier 2026</a>") == 1 + 2
