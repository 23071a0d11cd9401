"""Every changelist of the club's models reads a fixed number of queries, whatever its length:
at 20,000 members a query per row would take seconds. Each row gets its own related objects
(pool, user, tournament ...), so that a related object read per row shows as more queries."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.clubs.models import Club, Member
from clubrating.jobs.models import Job
from clubrating.tournaments.models import (
    Bye,
    Game,
    ResultChange,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentPlayer,
)
from ratings.models import (
    FideTakeover,
    PeriodReopening,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
    TournamentRating,
)
from tests.factories import (
    ByeFactory,
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TeamFactory,
    TeamMatchFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 1, 1)


def _user(i):
    return get_user_model().objects.create_user(f"user-{i}-{get_user_model().objects.count()}")


def _pool(i):
    return RatingPool.objects.create(name=f"Pool {i}-{RatingPool.objects.count()}", rules="oesb-classic",
                                     category="standard", start_date=DAY)


def _period(i):
    pool = _pool(i)
    return RatingPeriod.objects.create(pool=pool, start=DAY, end=DAY, state=PeriodState.CLOSED,
                                       closed_by=_user(i))


def _list(i):
    return PublishedList.objects.create(pool=_pool(i), kind="start", valid_from=DAY, published_by=_user(i))


def _record(i):
    game = GameFactory()
    return RatingRecord.objects.create(
        pool=_pool(i), game=game, member=game.white, opponent=game.black, white=True, played_on=DAY,
        score=1, own_rating=1623.4, opponent_rating=1700, expected=0.4, factor=13.709677419354838,
        change=-8.225806451612903)


BUILDERS = {
    Club: lambda i: ClubFactory(),
    Member: lambda i: MemberFactory(),
    Tournament: lambda i: TournamentFactory(),
    Round: lambda i: RoundFactory(),
    Game: lambda i: GameFactory(),
    Bye: lambda i: ByeFactory(),
    Team: lambda i: TeamFactory(),
    TeamMatch: lambda i: TeamMatchFactory(),
    TournamentPlayer: lambda i: TournamentPlayerFactory(),
    ResultChange: lambda i: ResultChange.objects.create(game=GameFactory(), changed_by=_user(i),
                                                        new_result="1-0"),
    Job: lambda i: Job.objects.create(key=f"k{i}", title=f"Job {i}", handler="x", started_by=_user(i)),
    RatingPool: _pool,
    RatingPeriod: _period,
    PublishedList: _list,
    PoolMember: lambda i: PoolMember.objects.create(pool=_pool(i), member=MemberFactory(), rating=1500.5),
    RatingRecord: _record,
    PeriodReopening: lambda i: PeriodReopening.objects.create(period=_period(i), reopened_by=_user(i),
                                                              reason="x"),
    FideTakeover: lambda i: FideTakeover.objects.create(list=_list(i), member=MemberFactory(),
                                                        fide_rating=1800, rating=1750.25),
    TournamentRating: lambda i: TournamentRating.objects.create(pool=_pool(i),
                                                                tournament=TournamentFactory()),
}


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


@pytest.mark.parametrize("model", BUILDERS, ids=lambda m: m._meta.label)
def test_a_changelist_reads_as_many_queries_for_50_rows_as_for_5(
        admin_client, model, django_assert_max_num_queries):
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    for i in range(5):
        BUILDERS[model](i)
    few = _queries(admin_client, url)
    for i in range(5, 50):
        BUILDERS[model](i)
    assert model.objects.count() >= 50
    with django_assert_max_num_queries(few):
        assert admin_client.get(url).status_code == 200


def test_rating_records_show_rounded_figures(admin_client):
    _record(1)
    html = admin_client.get(reverse("admin:ratings_ratingrecord_changelist")).content.decode()
    assert "13,709677419354838" not in html and "13.709677419354838" not in html
    # Ratings whole, expected score and factor with one decimal, the change signed with a real minus.
    for text in (">1623<", ">1700<", ">0,4<", ">13,7<", ">\u22128,2<"):
        assert text in html, text
