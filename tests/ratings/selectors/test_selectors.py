import pytest
from django.db import transaction

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Game
from ratings.models import RatingPool
from ratings.rules.performance import dp
from ratings.rules.rounding import round_half_away
from ratings.selectors import (
    list_entries,
    live_list,
    member_rating_blocks,
    member_ratings,
    pool_list_on,
    tournament_evaluation,
)
from ratings.services import period_close
from tests.ratings.services.scenario import build, play

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def played_once(django_db_setup, django_db_blocker):
    """The scenario's first tournaments played, once for the module (the tests only read it):
    inside a transaction rolled back at the module's end; each test runs in a savepoint within it."""
    with django_db_blocker.unblock(), transaction.atomic():
        pool, rated, newcomers, first, second, rng = build()
        play(first, rng)
        yield pool.pk, [m.pk for m in rated], [m.pk for m in newcomers], [g.pk for g in first]
        transaction.set_rollback(True)


@pytest.fixture
def played(played_once, db):
    """Fresh instances for each test, so nothing one test caches on them reaches the next."""
    pool_pk, rated, newcomers, first = played_once
    members = Member.objects.in_bulk(rated + newcomers)
    games = Game.objects.in_bulk(first)
    return (
        RatingPool.objects.get(pk=pool_pk),
        [members[pk] for pk in rated],
        [members[pk] for pk in newcomers],
        [games[pk] for pk in first],
    )


def test_live_list_in_one_query(played, django_assert_num_queries):
    pool, rated, newcomers, first = played
    with django_assert_num_queries(1):
        rows = live_list(pool)
        names = [r.member.club.name for r in rows]
    assert len(names) == 9 and [r.rank for r in rows] == list(range(1, 10))
    assert all(r.provisional for r in rows)
    assert rows[0].rating >= rows[-1].rating


def test_published_list_in_two_queries(played, django_assert_num_queries):
    pool, rated, newcomers, first = played
    period_close(pool=pool)
    with django_assert_num_queries(2):
        plist = pool_list_on(pool)
        entries = [(e.rank, e.member.full_name, e.club.name) for e in list_entries(plist)]
    assert len(entries) == 9


def test_member_pages_in_fixed_queries(played, django_assert_num_queries):
    pool, rated, newcomers, first = played
    with django_assert_num_queries(1):
        pools = [(pm.pool.name, pm.live_rating) for pm in member_ratings(rated[0])]
    with django_assert_num_queries(3):
        [block] = member_rating_blocks(rated[0])
        games = [
            (r.opponent.full_name, r.game.round.tournament.name, r.period.start, r.change)
            for r in block.records
        ]
    assert pools[0][0] == pool.name
    # 8 games in "Frühjahr", 3 in "Mai", of which the one against the late newcomer waits.
    assert len(games) == 11
    assert [g[1] for g in games if g[3] is None] == ["Mai"]


def test_tournament_evaluation_in_fixed_queries(played, django_assert_num_queries):
    pool, rated, newcomers, first = played
    tournament = first[0].round.tournament
    # The games, the records, their members and opponents, pools, starting ranks, the members' states.
    with django_assert_num_queries(6):
        [evaluation] = tournament_evaluation(tournament, pool)
        _names = [(p.member.full_name, [r.opponent.full_name for r in p.records]) for p in evaluation.rows]
    rows = evaluation.rows
    assert evaluation.pool == pool and len(rows) == 9
    top = max(rows, key=lambda row: row.own_rating or 0)
    assert top.games == 8 and top.pending == 0 and top.points == sum(r.score for r in top.records)
    assert top.change == pytest.approx(sum(r.change for r in top.records))
    assert top.expected == pytest.approx(sum(r.expected for r in top.records))
    for row in rows:  # rated and pending games apart: the rated ones add up
        rated = [r for r in row.records if not r.pending and r.change is not None]
        assert (row.games, row.pending) == (len(rated), len(row.records) - len(rated))
        assert row.points == sum(r.score for r in rated)
        assert row.change == pytest.approx(sum((r.score - r.expected) * r.factor for r in rated))


def test_tournament_evaluation_average_opponent_performance_and_surplus(played):
    """chess-results' Ø, W − We and Rp over the games against rated opponents (FIDE Rating
    Regulations 8.1.1: Rp = average opponent rating + dp(p))."""
    pool, rated, newcomers, first = played
    [evaluation] = tournament_evaluation(first[0].round.tournament, pool)
    top = max(evaluation.rows, key=lambda row: row.own_rating or 0)
    counted = [r for r in top.records
               if not r.pending and r.change is not None and r.opponent_rating is not None]
    average = sum(r.opponent_rating for r in counted) / len(counted)
    points = sum(r.score for r in counted)
    assert top.average_opponent == round_half_away(average)
    assert top.points_over_expected == pytest.approx(points - top.expected)
    assert top.performance == round_half_away(average + dp(points / len(counted)))


