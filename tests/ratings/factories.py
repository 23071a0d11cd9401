"""Ratings factories and small builders on top of tests/factories.py."""

import datetime

import pytest
from django.utils import translation

from clubrating.tournaments.models import Result
from ratings.models import RatingPool
from ratings.services import pool_create
from ratings.services.evaluation import period_evaluate
from ratings.services.lists import EntryData, list_publish
from ratings.services.pools import open_period
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory


def make_pool(name="Standard", rules="oesb-classic", start=datetime.date(2025, 1, 1), **kw) -> RatingPool:
    return pool_create(name=name, rules=rules, start_date=start, **kw)


def publish_start_list(pool, ratings: dict) -> None:
    """ratings: member -> rating or (rating, games)."""
    entries = {}
    for member, value in ratings.items():
        rating, games = value if isinstance(value, tuple) else (value, 0)
        entries[member.pk] = EntryData(rating=rating, games_count=games)
    list_publish(pool=pool, entries=entries, kind="start", valid_from=pool.start_date)
    period_evaluate(pool, open_period(pool))


def make_round(tournament=None, number=1, **kw):
    tournament = tournament or TournamentFactory(**kw)
    return RoundFactory(tournament=tournament, number=number)


def unplayed_game(rnd, white=None, black=None, board=1):
    return GameFactory(
        round=rnd,
        board=board,
        white=white or MemberFactory(),
        black=black or MemberFactory(),
        result=Result.NOT_PLAYED,
    )


def set_today(monkeypatch, day: datetime.date) -> None:
    """Make ``day`` the services' and pages' "today" (``django.utils.timezone.localdate``)."""
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: day)


@pytest.fixture
def english():
    """Messages in English (the default language is German, de-at)."""
    with translation.override("en"):
        yield
