"""A few members' new live places found before their ratings are written
(ratings.services.live_places): the ranks equal those of ranking the whole list from scratch
(ratings.lists.order) whatever the movers do, on SQLite and PostgreSQL."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.tournaments.models import Result
from ratings.models import PoolMember
from ratings.services import game_record_result
from ratings.services.live_places import FEW, live_ranks_place
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game
from tests.ratings.services.test_live_ranks import NAMES, RATINGS, scratch, stored

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]


@pytest.fixture
def listed():
    """The ten members of ``test_live_ranks`` on a published list, and three newcomers with a
    pool row but no rating yet (as a save leaves a newcomer before his first rating)."""
    pool = make_pool()
    members = [MemberFactory(last_name=last, first_name=first) for last, first in NAMES]
    publish_start_list(pool, dict(zip(members, RATINGS, strict=True)))
    newcomers = [MemberFactory(last_name=f"Neu{i}", first_name="Nina") for i in range(3)]
    PoolMember.objects.bulk_create([PoolMember(pool=pool, member=m) for m in newcomers])
    by_name = {f"{m.last_name}, {m.first_name}": m for m in members}
    return pool, members, newcomers, by_name


def place(pool, moves: dict) -> dict:
    """As a save does: the new places first, then each written member's rating with his place;
    returns the movers' ranks."""
    places = live_ranks_place(pool.pk, {m.pk: rating for m, rating in moves.items()})
    for member, rating in moves.items():
        row = PoolMember.objects.filter(pool=pool, member=member)
        row.update(live_rating=rating, live_place=places[member.pk])
    ranks = stored(pool)
    assert ranks == scratch(pool)
    return {m: ranks.get(m.pk) for m in moves}


def test_ties_are_ordered_by_folded_name_then_record_number(listed):
    pool, members, _newcomers, by_name = listed
    adler, zach = by_name["Adler, Max"], by_name["Zach, Anton"]
    # The four at 1800 are "Berger, anna", "Berger, Bernd", "de Vries", "Dorner": "Adler" comes
    # first of them, "Zach" last.
    assert place(pool, {adler: 1800}) == {adler: 3}
    assert place(pool, {zach: 1800}) == {zach: 7}
    twins = [m for m in members if m.last_name == "Gleich"]  # one name, told apart by record number
    first, second = sorted(twins, key=lambda m: m.pk)
    assert place(pool, {second: 1800, first: 1800}) == {first: 7, second: 8}


def test_a_member_moves_to_the_first_and_to_the_last_place(listed):
    pool, _members, _newcomers, by_name = listed
    adler, zach = by_name["Adler, Max"], by_name["Zach, Anton"]
    assert place(pool, {adler: 2200}) == {adler: 1}
    assert stored(pool)[zach.pk] == 2
    assert place(pool, {zach: 1000}) == {zach: 10}
    assert place(pool, {adler: 999, zach: 3000}) == {adler: 10, zach: 1}


def test_two_players_of_one_game_move_past_each_other(listed):
    pool, _members, _newcomers, by_name = listed
    zach, oswald = by_name["Zach, Anton"], by_name["Oswald, Eva"]  # 2100 first, 1795 seventh
    # Oswald passes all: Zach falls behind "Özdemir" (1810) and the four at 1800.
    assert place(pool, {zach: 1790, oswald: 2000}) == {zach: 7, oswald: 1}
    # And back across them, Zach landing last of the four at 1800, Oswald right behind him.
    assert place(pool, {zach: 1800, oswald: 1790}) == {zach: 6, oswald: 7}


def test_a_first_rating_enters_the_list_and_a_lost_one_leaves_it(listed):
    pool, _members, newcomers, by_name = listed
    assert place(pool, {newcomers[0]: 1800, newcomers[1]: 1400}) == {newcomers[0]: 7, newcomers[1]: 12}
    assert place(pool, {newcomers[0]: None, by_name["Adler, Max"]: 2500}) == {
        newcomers[0]: None, by_name["Adler, Max"]: 1}
    # A member without a rating written again keeps none; one who stays keeps his place.
    assert place(pool, {newcomers[2]: None, by_name["Zach, Anton"]: 2100}) == {
        newcomers[2]: None, by_name["Zach, Anton"]: 2}


def test_random_moves_of_a_few_members_give_the_ranks_from_scratch(listed):
    pool, members, newcomers, _by_name = listed
    rng = random.Random(35)
    everyone = members + newcomers
    for _step in range(60):
        movers = rng.sample(everyone, rng.randint(1, 4))
        # Few distinct ratings: many ties, moves onto and off one another's ratings.
        place(pool, {m: rng.choice([None, 1500, 1650, 1795, 1800, 1810, 2100]) for m in movers})


def test_more_members_than_a_few_are_left_to_the_bands():
    pool = make_pool()
    members = [MemberFactory() for _ in range(FEW + 1)]
    publish_start_list(pool, {m: 1500 + i for i, m in enumerate(members)})
    assert live_ranks_place(pool.pk, {m.pk: 1400.0 for m in members}) is None
    assert live_ranks_place(pool.pk, {m.pk: 1400.0 for m in members[:FEW]}) is not None


def _save_queries(size: int, category: str) -> int:
    """The statements of one result save in a pool of ``size`` rated members (the only pool of
    ``category``); the players pass each other only (the others are rated far below)."""
    pool = make_pool(name=f"Pool {size}", category=category)
    white, black = MemberFactory(last_name="Weiss"), MemberFactory(last_name="Schwarz")
    others = [MemberFactory() for _ in range(size)]
    publish_start_list(pool, {white: 1800, black: 1790, **{m: 1000 + i % 7 for i, m in enumerate(others)}})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 2, 1), category=category), white, black)
    game_record_result(game=game, result=Result.WHITE_WINS)
    with CaptureQueriesContext(connection) as queries:
        game_record_result(game=game, result=Result.BLACK_WINS)
    assert stored(pool) == scratch(pool)
    return len(queries)


def test_a_save_sends_as_many_statements_whatever_the_pool():
    assert _save_queries(5, "rapid") == _save_queries(60, "blitz")


def test_random_moves_of_dozens_of_members_give_the_ranks_from_scratch():
    """A newcomer's group can move a few dozen members in one save: they are placed too."""
    pool = make_pool()
    members = [MemberFactory(last_name=f"Spieler{i % 7}", first_name="Kim") for i in range(FEW + 20)]
    publish_start_list(pool, {m: 1500 + 10 * (i % 9) for i, m in enumerate(members)})
    rng = random.Random(64)
    for size in (FEW // 4 + 1, FEW // 2, FEW):
        movers = rng.sample(members, size)
        moves = {m: rng.choice([None, 1490, 1500, 1530, 1545, 1580, 1620]) for m in movers}
        ranks = live_ranks_place(pool.pk, {m.pk: rating for m, rating in moves.items()})
        assert ranks is not None
        for member, rating in moves.items():
            row = PoolMember.objects.filter(pool=pool, member=member)
            row.update(live_rating=rating, live_place=ranks[member.pk])
        assert stored(pool) == scratch(pool)
