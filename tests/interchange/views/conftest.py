"""Users, a home club and a small played tournament for the exchange page tests."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
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


def _in_group(username: str, group: str) -> User:
    user = User.objects.create_user(username, password=f"pw-{username}")
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def official(db):
    return _in_group("offi", settings.OFFICIALS_GROUP)


@pytest.fixture
def officer(db):
    return _in_group("officer", settings.RATING_OFFICERS_GROUP)


@pytest.fixture
def plain_user(db):
    return User.objects.create_user("plain", password="pw-plain")


@pytest.fixture
def staff_user(db):
    return User.objects.create_user("staff", password="pw-staff", is_staff=True)


@pytest.fixture
def official_client(client, official, home_club):
    client.force_login(official)
    return client


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
