"""Every service is one transaction: a failure at its last step leaves nothing changed."""

import copy

import pytest
from django.db import transaction

from clubrating.tournaments.models import Game, Result, ResultChange
from ratings.models import (
    ListEntry,
    PeriodReopening,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingRecord,
)
from ratings.services import (
    game_record_result,
    period_close,
    period_reopen,
    pool_recalculate,
    pool_transform_2024,
    ratings_import_list,
)
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool
from tests.ratings.services.scenario import build, play
from tests.ratings.services.test_recalc import FIELDS

pytestmark = pytest.mark.django_db


class Boom(Exception):
    pass


def everything():
    return (
        sorted(RatingRecord.objects.values_list(*FIELDS)),
        sorted(PoolMember.objects.values_list()),
        sorted(PublishedList.objects.values_list("pk", "superseded")),
        ListEntry.objects.count(),
        sorted(RatingPeriod.objects.values_list()),
        PeriodReopening.objects.count(),
        sorted(Game.objects.values_list("pk", "result", "rated_result")),
        ResultChange.objects.count(),
    )


def boom(*args, **kwargs):
    raise Boom


@pytest.fixture(scope="module")
def scenario_once(django_db_setup, django_db_blocker):
    """The pool and its first tournament played, built once for the module: inside a transaction
    rolled back when the module is done; each test runs in a savepoint within it."""
    with django_db_blocker.unblock(), transaction.atomic():
        pool, rated, newcomers, first, second, rng = build()
        play(first, rng)
        yield pool, first, second
        transaction.set_rollback(True)


@pytest.fixture
def scenario(scenario_once, db):
    """The scenario's objects copied for one test (what a test sets on one does not reach the next)."""
    return copy.deepcopy(scenario_once)


@pytest.mark.parametrize(
    ("target", "call"),
    [
        (
            "ratings.services.results.members_reevaluate",
            lambda pool, first, second: game_record_result(game=first[0], result=Result.DRAW),
        ),
        ("ratings.services.periods.carry_pending", lambda pool, first, second: period_close(pool=pool)),
        ("ratings.services.recalc._write_members", lambda pool, first, second: pool_recalculate(pool=pool)),
        (
            "ratings.services.transform.period_evaluate",
            lambda pool, first, second: pool_transform_2024(pool=pool),
        ),
    ],
)
def test_a_failing_service_changes_nothing(scenario, monkeypatch, target, call):
    before = everything()
    monkeypatch.setattr(target, boom)
    with pytest.raises(Boom):
        call(*scenario)
    assert everything() == before


def test_a_failing_reopen_changes_nothing(scenario, monkeypatch):
    pool, first, second = scenario
    plist = period_close(pool=pool)
    play(second[:2], __import__("random").Random(1))
    before = everything()
    monkeypatch.setattr("ratings.services.periods.state_restore", boom)
    with pytest.raises(Boom):
        period_reopen(period=plist.period, reason="test")
    assert everything() == before


def test_a_failing_import_changes_nothing(monkeypatch):
    pool = make_pool(name="Import")  # beside the module's scenario pool
    MemberFactory(national_id="7")
    before = everything()
    monkeypatch.setattr("ratings.services.imports.period_evaluate", boom)
    with pytest.raises(Boom):
        ratings_import_list(pool=pool, text="id,rating\n7,1500\n")
    assert everything() == before
