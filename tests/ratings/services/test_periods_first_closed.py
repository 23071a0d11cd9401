"""Period closing and reopening on the scenario of tests/ratings/services/scenario.py with its
first period played and closed (pending games carried, a reopening needing a reason, a list
published before live values were kept): the scenario is built once for the module, each test
on its own copy, as tests/ratings/services/test_period_kept.py does."""

import copy
import datetime

import pytest
from django.db import transaction
from django.utils import translation

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PeriodReopening, PeriodState, PoolMember, PublishedList, RatingRecord
from ratings.services import RatingsError, game_record_result, period_close, period_reopen, pool_recalculate
from tests.ratings.factories import english  # noqa: F401  (fixture)
from tests.ratings.services.scenario import build, play
from tests.ratings.services.test_recalc import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture(scope="module")
def first_closed_once(django_db_setup, django_db_blocker):
    """The scenario with its first period played and closed, built once for the module (in
    English, as the tests run): inside a transaction rolled back when the module is done; each
    test runs in a savepoint within it. (pool, rated, newcomers, first, second, rng, the list)."""
    with django_db_blocker.unblock(), transaction.atomic(), translation.override("en"):
        pool, rated, newcomers, first, second, rng = build()
        play(first, rng)
        yield pool, rated, newcomers, first, second, rng, period_close(pool=pool)
        transaction.set_rollback(True)


@pytest.fixture
def first_closed(first_closed_once, db):
    """The scenario's objects copied for one test (its random draws go on from the same state)."""
    return copy.deepcopy(first_closed_once)


def test_pending_games_are_carried_and_rated_when_the_newcomer_is_published(first_closed):
    pool, rated, newcomers, first, second, rng, _first_list = first_closed
    late = newcomers[3]
    carried = RatingRecord.objects.filter(pool=pool, game__round__tournament__name="Mai", pending=True)
    assert carried.count() == 6 and {r.period.start for r in carried} == {datetime.date(2025, 7, 1)}
    assert not ListEntry.objects.filter(member=late).exists()

    play(second, rng)
    plist = period_close(pool=pool)

    entry = ListEntry.objects.get(list=plist, member=late)
    assert entry.start_value and entry.games_count == 8 and entry.change is None
    assert not RatingRecord.objects.filter(pool=pool, member__in=rated, opponent=late, pending=True).exists()
    # newcomers[3]'s start value used its game against newcomers[4]; only the latter's side waits.
    assert RatingRecord.objects.filter(pool=pool, opponent=newcomers[4], pending=True).count() == 4
    solo = RatingRecord.objects.get(pool=pool, member=newcomers[4], opponent=late)
    assert (solo.pending, solo.solo, solo.period.start) == (True, True, datetime.date(2026, 1, 1))


def test_reopen_needs_a_reason_is_recorded_and_republishing_replaces_the_list(first_closed):
    pool, rated, newcomers, first, second, rng, old = first_closed
    play(second[:3], rng)
    period = old.period
    with pytest.raises(RatingsError, match="reason"):
        period_reopen(period=period, reason="  ")
    later = RatingRecord.objects.filter(pool=pool, played_on__gte=datetime.date(2025, 7, 1)).order_by("pk")
    calculated = list(later.values_list("pk", "pending", "own_rating", "change"))

    period_reopen(period=period, reason="Wrong result in round 2")

    assert PeriodReopening.objects.get(period=period).reason == "Wrong result in round 2"
    assert pool.periods.get(state=PeriodState.OPEN) == period
    # The three games of the next period wait in it, keeping the calculation they had (which
    # no reader shows: ``waiting_calculation_hidden``); the carried ones returned.
    following = pool.periods.get(state=PeriodState.WAITING)
    assert following.start == datetime.date(2025, 7, 1)
    waiting = RatingRecord.objects.filter(pool=pool, period=following)
    assert waiting.count() == 6 and list(waiting.order_by("pk").values_list(
        "pk", "pending", "own_rating", "change")) == calculated
    assert waiting.filter(change__isnull=False).exists()
    first[0].refresh_from_db()  # (a correction that moves the list: a win turned into a loss)
    swapped = Result.BLACK_WINS if first[0].result != Result.BLACK_WINS else Result.WHITE_WINS
    game_record_result(game=first[0], result=swapped)
    new = period_close(pool=pool)
    assert new != old
    # Closing opens the waiting period again (the same one) and rates its games.
    following.refresh_from_db()
    assert following.state == PeriodState.OPEN
    # Its six records and the six the closing carried (May's games against newcomers, §1.7);
    # each is rated or waits for a newcomer, exactly as recalculating the pool gives.
    assert waiting.count() == 12 and waiting.filter(played_on__lt=following.start).count() == 6
    assert not waiting.filter(change__isnull=True, pending=False).exists()
    assert waiting.filter(change__isnull=False).count() == 2
    before = snapshot(pool)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before
    old.refresh_from_db()
    assert old.superseded and not new.superseded and new.period == period
    assert list(PublishedList.objects.filter(pool=pool, superseded=False).order_by("pk")) == [
        PublishedList.objects.get(pool=pool, kind="start"),
        new,
    ]
    assert RatingRecord.objects.filter(pool=pool, period=None).count() == 0


def test_reopening_a_list_published_before_live_values_were_kept_evaluates_the_period(first_closed):
    pool, rated, newcomers, first, second, rng, plist = first_closed
    PublishedList.objects.filter(pk=plist.pk).update(live_values_kept=False)
    PoolMember.objects.filter(pool=pool).update(live_games=0)  # whatever is stored is replaced

    period_reopen(period=plist.period, reason="Korrektur")

    games = dict(PoolMember.objects.filter(pool=pool).values_list("member_id", "live_games"))
    assert games[rated[0].pk] == ListEntry.objects.get(list=plist, member=rated[0]).period_games > 0
