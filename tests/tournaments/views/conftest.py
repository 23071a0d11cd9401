"""A small rated Swiss tournament and a home club for the page tests (the official, the plain user and
the official's client are the shared ones of tests/conftest.py)."""

import datetime

import pytest

from clubrating.tournaments.models import Result, TournamentKind
from ratings.models import PoolMember
from ratings.services import pool_create
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

RATINGS = [1830, 1980, 1950, 1820]


@pytest.fixture
def home_club(db):
    return ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True,
                       public_tournaments=True)


@pytest.fixture
def tournament(home_club):
    """Four players, round 1 paired (boards 1 and 2) without results, in a rated pool."""
    tournament = TournamentFactory(name="Herbstturnier", kind=TournamentKind.SWISS, rounds_count=3,
                                   start_date=datetime.date(2026, 9, 1), tiebreaks="BH,SB")
    pool = pool_create(name="Standard", start_date=datetime.date(2026, 7, 1))
    members = []
    for rank, (last, rating) in enumerate(zip(["Adler", "Berger", "Ced", "Dorn"], RATINGS), start=1):
        member = MemberFactory(last_name=last, first_name="Max", club=home_club)
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, rating=rating)
        PoolMember.objects.create(pool=pool, member=member, rating=rating, games_count=10)
        members.append(member)
    rnd = RoundFactory(tournament=tournament, number=1)
    GameFactory(round=rnd, board=1, white=members[0], black=members[1], result=Result.NOT_PLAYED)
    GameFactory(round=rnd, board=2, white=members[2], black=members[3], result=Result.NOT_PLAYED)
    tournament.pool = pool
    tournament.members = members
    return tournament
