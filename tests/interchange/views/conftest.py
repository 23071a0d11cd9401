"""A home club and a small played tournament for the exchange page tests (the users are the shared
ones of tests/conftest.py)."""

import datetime

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Result
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

# The languages the tests choose with the switcher's cookie (tests.language.speak).
EN = "en"
DE = "de-at"


@pytest.fixture
def home_club(db):
    return ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True,
                       public_tournaments=True)


@pytest.fixture
def official_client(official_client, home_club):
    """The shared official's client (tests/conftest.py), with the home club present."""
    return official_client


@pytest.fixture
def tournament(home_club):
    """Four players; round 1 played: Adler beat Berger, Ced drew with Dorn."""
    tournament = TournamentFactory(name="Herbstturnier 2026", start_date=datetime.date(2026, 9, 1),
                                   rounds_count=2)
    members = [
        MemberFactory(last_name=last, first_name="Max", club=home_club, fide_rating=rating)
        for last, rating in (("Adler", 1830), ("Berger", 1980), ("Ced", 1950), ("Dorn", 1820))
    ]
    for rank, member in enumerate(members, start=1):
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank)
    rnd = RoundFactory(tournament=tournament, number=1)
    GameFactory(round=rnd, board=1, white=members[0], black=members[1], result=Result.WHITE_WINS)
    GameFactory(round=rnd, board=2, white=members[2], black=members[3], result=Result.DRAW)
    tournament.members = members
    return tournament


def login_url(path: str) -> str:
    return f"{reverse('login')}?next={path}"
