"""The number of a pool's rated members (``ratings.selectors.rated_members_count``), read from the
live ranks kept with the live ratings: exactly the live list's rows after results are saved, a
newcomer enters the list, a new member joins and a period is closed; and on the start page."""

import datetime
import random
import re

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Result
from ratings.models import PoolMember
from ratings.selectors import live_count, rated_members_count
from ratings.services import game_record_result, period_close
from tests.factories import MemberFactory
from tests.language import speak
from tests.ratings.factories import make_pool, make_round, publish_start_list, set_today, unplayed_game

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]


def _scanned(pool) -> int:
    return PoolMember.objects.filter(pool=pool, live_rating__isnull=False).count()


@pytest.fixture
def club_pool():
    pool = make_pool()
    members = [MemberFactory(last_name=f"Spieler{i:02d}", first_name="Max") for i in range(10)]
    publish_start_list(pool, {m: 1500 + 25 * (i % 4) for i, m in enumerate(members)})  # ties
    return pool, members


def test_the_count_is_the_list_rows_after_saves_a_newcomer_a_new_member_and_a_close(club_pool, monkeypatch):
    pool, members = club_pool
    assert rated_members_count(pool_id=pool.pk) == 10
    newcomer = MemberFactory(last_name="Neu", first_name="Nina")  # in no pool yet: not counted
    assert rated_members_count(pool_id=pool.pk) == 10 == live_count(pool)
    rng = random.Random(3)
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for number in range(1, 9):
        rnd = make_round(start_date=datetime.date(2025, 2, number))
        white, black, opponent = rng.sample(members, 3)
        game_record_result(game=unplayed_game(rnd, white, black), result=rng.choice(results))
        game_record_result(game=unplayed_game(rnd, newcomer, opponent, board=2), result=rng.choice(results))
        assert rated_members_count(pool_id=pool.pk) == _scanned(pool)
    assert PoolMember.objects.get(pool=pool, member=newcomer).live_rating is not None  # on the list now
    assert rated_members_count(pool_id=pool.pk) == 11 == live_count(pool)
    set_today(monkeypatch, datetime.date(2026, 1, 15))
    period_close(pool=pool)
    assert rated_members_count(pool_id=pool.pk) == 11 == _scanned(pool)


def test_an_empty_pool_and_ranks_not_written_yet_count_their_rows():
    pool = make_pool()
    assert rated_members_count(pool_id=pool.pk) == 0
    for i, member in enumerate(MemberFactory.create_batch(3)):
        PoolMember.objects.create(pool=pool, member=member, live_rating=1600 + i)  # no rank written
    assert rated_members_count(pool_id=pool.pk) == 3


def test_the_start_page_shows_the_count_and_follows_a_save(client, club_pool):
    pool, members = club_pool
    speak(client, "en")

    def shown() -> int:
        html = client.get(reverse("home")).content.decode()
        return int(re.search(r"Full list \((\d+) players?\)", html).group(1))

    assert shown() == 10
    newcomer = MemberFactory(last_name="Neu", first_name="Nina")
    for number in range(1, 9):  # enough games for a start value
        rnd = make_round(start_date=datetime.date(2025, 2, number))
        game_record_result(game=unplayed_game(rnd, newcomer, members[number]), result=Result.WHITE_WINS)
    assert _scanned(pool) == 11
    assert shown() == 11
