"""Pending newcomer games apart from rated ones (evaluation, member page): the rated figures add
up, the performance is FIDE's over the games against rated opponents, and each pending game says
whose first rating it waits for."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Result
from ratings.selectors import member_rating_blocks, tournament_evaluation, tournament_evaluation_summary
from ratings.services import game_record_result
from tests.factories import ClubFactory, MemberFactory, TournamentFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game

pytestmark = pytest.mark.django_db

# Adler (1900) against four rated opponents averaging 1900, then a draw with the newcomer Neu.
OPPONENTS = [("Berg", 1850, Result.WHITE_WINS), ("Cerny", 1950, Result.WHITE_WINS),
             ("Dorn", 1880, Result.DRAW), ("Eder", 1920, Result.DRAW)]


@pytest.fixture
def season():
    ClubFactory(is_home=True, public_ratings=True, public_tournaments=True)
    pool = make_pool()
    adler = MemberFactory(last_name="Adler", first_name="Anna")
    neu = MemberFactory(last_name="Neu", first_name="Nora")
    others = [(MemberFactory(last_name=name, first_name="Max"), rating, result)
              for name, rating, result in OPPONENTS]
    publish_start_list(pool, {adler: (1900, 30), **{m: (r, 30) for m, r, _res in others}})
    tournament = TournamentFactory(name="Frühling", start_date=datetime.date(2025, 3, 1))
    for number, (member, _rating, result) in enumerate(others, start=1):
        game_record_result(game=unplayed_game(make_round(tournament, number), adler, member), result=result)
    game_record_result(game=unplayed_game(make_round(tournament, 5), adler, neu), result=Result.DRAW)
    return pool, tournament, adler, neu


def test_the_evaluation_counts_rated_games_only_and_says_whose_rating_a_pending_game_waits_for(season):
    pool, tournament, adler, neu = season

    [evaluation] = tournament_evaluation(tournament, pool)

    row = next(r for r in evaluation.rows if r.member == adler)
    rated = [r for r in row.records if not r.pending]
    assert (row.games, row.points, row.pending, row.pending_points) == (4, 3.0, 1, 0.5)
    assert row.expected == pytest.approx(sum(r.expected for r in rated))
    assert row.change == pytest.approx(sum((r.score - r.expected) * r.factor for r in rated))
    [waiting] = [r for r in row.records if r.pending]
    assert (waiting.opponent, waiting.waits_for_own) == (neu, False)
    newcomer = next(r for r in evaluation.rows if r.member == neu)
    [own] = newcomer.records
    assert (newcomer.games, newcomer.pending, own.waits_for_own, own.own_games, own.needed_games) == (
        0, 1, True, 1, 7)


def test_the_performance_is_fides_over_the_games_against_rated_opponents(season):
    pool, tournament, adler, neu = season

    [block] = member_rating_blocks(adler)
    [perf] = block.performances

    # 3 of 4 against an average of 1900: 1900 + dp(0.75) = 1900 + 193 (FIDE Rating Regulations 8.1.1).
    assert (perf.games, perf.points, perf.average, perf.performance) == (4, 3.0, 1900.0, 2093)
    assert (perf.unrated, perf.unrated_points, perf.pending) == (1, 0.5, 1)
    assert perf.change == pytest.approx(sum(r.change for r in block.records if not r.pending))
    # The newcomer's own game counts for his performance: the opponent played with 1900.
    [newcomer_block] = member_rating_blocks(neu)
    [newcomer_perf] = newcomer_block.performances
    assert (newcomer_perf.games, newcomer_perf.average, newcomer_perf.performance, newcomer_perf.pending) == (
        1, 1900.0, 1900, 1)


def page(client, view: str, obj) -> str:
    return client.get(reverse(view, args=[obj.pk])).content.decode()


def test_pages_word_the_pending_reason_for_each_side(client, season):
    pool, tournament, adler, neu = season
    Club.objects.filter(is_home=True).update(public_ratings=True, public_tournaments=True)
    client.force_login(User.objects.create_superuser("chef", password="x"))

    evaluation = page(client, "tournaments:evaluation", tournament)
    adler_page = page(client, "clubs:member_detail", adler)
    neu_page = page(client, "clubs:member_detail", neu)

    mine = "offen: wartet auf die eigene erste Wertungszahl (1 von 7 Partien)"
    theirs = "offen: wartet auf die erste Wertungszahl von Neu, Nora"
    assert evaluation.count(mine) == 1 and evaluation.count(theirs) == 1
    assert "Gegners" not in evaluation
    assert theirs in adler_page and mine not in adler_page
    assert mine in neu_page and "wartet auf die erste Wertungszahl von" not in neu_page
    # Adler's performance line: 4 games (+1 pending), 3,0 points (+0,5), average 1900, performance 2093
    # on its 4 rated games
    # (ratings never grouped; on a phone games, average and performance give way to the points).
    narrow = "text-end d-none d-sm-table-cell"
    assert (f'<td class="{narrow}">4 <small class="text-muted">(+1 ausständig)</small></td>\n'
            f'      <td class="text-end">3,0 <small class="text-muted">(+0,5)</small></td>\n'
            f'      <td class="{narrow}">1900</td>\n      <td class="{narrow}"><span class="rp">2093</span> '
            '<span class="small text-muted rp-games" '
            'title="gewertete Partien, auf denen sie beruht">(4)</span></td>') in adler_page


def test_a_game_waiting_for_its_period_says_so_not_that_it_waits_for_a_newcomer(client):
    from ratings.models import PeriodState
    from ratings.services import period_close, period_reopen

    ClubFactory(is_home=True, public_ratings=True, public_tournaments=True)
    pool = make_pool()
    adler = MemberFactory(last_name="Adler", first_name="Anna")
    berg = MemberFactory(last_name="Berg", first_name="Max")
    publish_start_list(pool, {adler: 1950, berg: 1820})
    first = period_close(pool=pool).period  # 2025-H1 closed, 2025-H2 open
    autumn = TournamentFactory(name="Herbst", start_date=datetime.date(2025, 9, 1))
    game_record_result(game=unplayed_game(make_round(autumn, 1), adler, berg), result=Result.WHITE_WINS)
    spring = TournamentFactory(name="Frühjahr", start_date=datetime.date(2026, 2, 1))  # no period yet
    game_record_result(game=unplayed_game(make_round(spring, 1), berg, adler), result=Result.DRAW)
    period_reopen(period=first, reason="Korrektur")  # 2025-H2 waits
    assert pool.periods.get(start=datetime.date(2025, 7, 1)).state == PeriodState.WAITING
    client.force_login(User.objects.create_superuser("chef", password="x"))

    member_page = page(client, "clubs:member_detail", adler)
    autumn_page, spring_page = (page(client, "tournaments:evaluation", t) for t in (autumn, spring))

    waiting = "noch nicht gewertet: wartet auf die Öffnung ihrer Wertungsperiode 01.07.2025–31.12.2025"
    later = "noch nicht gewertet: wartet auf die Öffnung ihrer Wertungsperiode<"
    assert member_page.count(waiting) == 1 and member_page.count(later) == 1
    assert autumn_page.count(waiting) == 2 and spring_page.count(later) == 2
    everything = member_page + autumn_page + spring_page
    assert "Erstwertung" not in everything and "erste Wertungszahl" not in everything
    [block] = member_rating_blocks(adler)
    assert [(r.played_on, r.waits_for_period) for r in block.records] == [
        (datetime.date(2025, 9, 1), True), (datetime.date(2026, 2, 1), True)
    ]


def test_the_evaluation_summary_has_the_figures_without_the_records(season, django_assert_num_queries):
    pool, tournament, adler, neu = season
    [full] = tournament_evaluation(tournament, pool)

    with django_assert_num_queries(5):  # the games, the records' numbers, members, starting ranks, pools
        [summary] = tournament_evaluation_summary(tournament)

    assert summary.pool == pool
    # Each player as his key and name (``EvaluatedMember``), not a model object.
    assert [(row.member.pk, str(row.member)) for row in summary.rows] == [
        (row.member.pk, str(row.member)) for row in full.rows]
    adler_row = next(r for r in summary.rows if r.member.pk == adler.pk)
    # 2 of 2 against 1850 and 1950, two draws against 1880 and 1920: 4 games, 3 points, average
    # 1900, performance 1900 + dp(0.75) = 2093; the draw with the newcomer waits (+½).
    assert (adler_row.games, adler_row.points) == (4, 3.0)
    assert (adler_row.pending, adler_row.pending_points) == (1, 0.5)
    assert (adler_row.own_rating, adler_row.average_opponent, adler_row.performance) == (1900, 1900, 2093)
    assert adler_row.records == []
    newcomer = next(r for r in summary.rows if r.member.pk == neu.pk)
    assert (newcomer.games, newcomer.pending, newcomer.own_rating, newcomer.change_rounded) == (0, 1, None, 0)
    for short, whole in zip(summary.rows, full.rows):
        for name in ("start_rank", "own_rating", "factor", "games", "points", "expected", "change", "pending",
                     "pending_points", "rated_points", "opponent_ratings"):
            assert getattr(short, name) == getattr(whole, name), name


def test_the_evaluation_of_one_member_carries_only_his_records(season):
    pool, tournament, adler, neu = season

    [evaluation] = tournament_evaluation(tournament, member=neu)

    [row] = evaluation.rows
    assert (row.member, [r.opponent for r in row.records], row.pending) == (neu, [adler], 1)


def test_a_newcomers_games_towards_his_first_rating_say_so_on_every_page(client, monkeypatch):
    from ratings.models import ListEntry
    from ratings.selectors import game_rating_changes
    from ratings.services import period_close
    from tests.ratings.factories import set_today

    ClubFactory(is_home=True, public_ratings=True, public_tournaments=True)
    pool = make_pool()
    neu = MemberFactory(last_name="Neu", first_name="Nora")
    rated = [MemberFactory(last_name=f"Gegner {i}", first_name="Max") for i in range(7)]
    publish_start_list(pool, {m: (1800 + 20 * i, 40) for i, m in enumerate(rated)})
    tournament = TournamentFactory(name="Sommer", start_date=datetime.date(2025, 3, 1))
    games = [unplayed_game(make_round(tournament, n), neu, m) for n, m in enumerate(rated, start=1)]
    for game in games:  # 5½ of 7 against an average of 1860: a start value (§1.6), no change per game
        game_record_result(game=game, result=Result.WHITE_WINS if game.round.number <= 4 else Result.DRAW)
    client.force_login(User.objects.create_superuser("chef", password="x"))

    [board] = game_rating_changes([games[0].pk])[games[0].pk]
    assert (board.white_first_rating, board.black_first_rating) == (True, False)
    # The rated side's game is rated against the newcomer's start value: a loss, a change of its own.
    loss = f"{board.black_change:.1f}".replace("-", "−").replace(".", ",")
    assert board.white_change is None and board.black_change < -1
    counts = "zählt für die eigene erste Wertungszahl"
    game_page = page(client, "tournaments:game", games[0])
    assert f'<abbr class="text-muted" title="{counts}">N</abbr> / {loss}' in game_page
    [block] = member_rating_blocks(neu)
    assert [r.counts_for_first_rating for r in block.records] == [True] * 7
    assert [(p.games, p.points, p.change) for p in block.performances] == [(7, 5.5, None)]
    neu_page = page(client, "clubs:member_detail", neu)
    assert neu_page.count(counts) == 7 and "wartet" not in neu_page
    assert '<td class="text-end">—</td></tr>' in neu_page  # the tournament's change: none of its own
    opponent_page = page(client, "clubs:member_detail", rated[0])
    assert counts not in opponent_page

    set_today(monkeypatch, datetime.date(2025, 7, 1))
    plist = period_close(pool=pool)
    entry = ListEntry.objects.get(list=plist, member=neu)
    assert (entry.start_value, entry.markers, entry.change) == (True, "", None)
    list_page = page(client, "ratings:list", plist)
    # Start value 1860 + 700 × (5.5/7 − 0.5) × 7/9 = 2015.6: rating 2016, no change, 7 games, "N".
    row = list_page.split("Neu, Nora</a></td>")[1].split("</tr>")[0]
    cells = re.findall(r'<td class="[^"]*">([^<]*)</td>', row)
    # title, club, born, sex, rating, change, games, in the period, markers
    assert cells[4:9] == ["2016", "", "7", "7", "N"]
    assert page(client, "clubs:member_detail", neu).count(counts) == 7  # also once the period is closed
