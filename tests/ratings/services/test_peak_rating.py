"""FIDE Rating Regulations 8.3.3 in a pool: K 10 once the member's published rating has reached
2400 on any list of the pool in force, even when it has fallen below since. The peak comes from
the pool's own lists (a hand-made starting list carries no flag), a reopened period's list does
not count while it is reopened, and the recalculation uses the same history."""

import datetime

import pytest

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, RatingRecord
from ratings.services import game_record_result, period_close, period_reopen, pool_recalculate
from ratings.services.evaluation import peak_ratings
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, unplayed_game

pytestmark = pytest.mark.django_db


def _games(day, pairs):
    """Games on ``day`` as (white, black, result), entered through the result service."""
    tournament = TournamentFactory(start_date=day, rounds_count=len(pairs))
    for number, (white, black, result) in enumerate(pairs, start=1):
        game = unplayed_game(RoundFactory(tournament=tournament, number=number, date=day), white, black)
        game_record_result(game=game, result=result)


def _factors(pool, day):
    """member -> K of the member's records of games on ``day`` (all equal per member)."""
    factors = {}
    for member_id, factor in RatingRecord.objects.filter(pool=pool, played_on=day).values_list(
        "member_id", "factor"
    ):
        factors.setdefault(member_id, set()).add(factor)
    return {member_id: values.pop() for member_id, values in factors.items() if len(values) == 1}


@pytest.mark.parametrize("rules", ["fide-2024", "fide-2025"])
def test_k_follows_the_members_own_history_over_periods(rules):
    pool = make_pool(rules=rules, start=datetime.date(2025, 1, 1))
    names = ("Fallen", "Opp", "Climb", "Never")
    fallen, opponent, climber, never = (MemberFactory(last_name=n) for n in names)
    # A starting list made by hand: ratings only, no "reached 2400" flag.
    publish_start_list(pool, {fallen: (2410, 100), opponent: (2200, 100), climber: (2390, 100),
                              never: (2395, 100)})
    january, february = datetime.date(2025, 1, 15), datetime.date(2025, 2, 15)
    _games(january, [(fallen, opponent, Result.BLACK_WINS), (opponent, fallen, Result.WHITE_WINS),
                     (climber, opponent, Result.WHITE_WINS), (opponent, climber, Result.BLACK_WINS)])
    assert _factors(pool, january) == {fallen.pk: 10, opponent.pk: 20, climber.pk: 20}
    period_close(pool=pool)
    listed = dict(ListEntry.objects.filter(list__period__end=datetime.date(2025, 1, 31))
                  .values_list("member_id", "rating"))
    # 2410 - 2 x 10 x 0.77 = 2394.6; 2390 + 2 x 20 x (1 - 0.75) = 2400.
    assert (listed[fallen.pk], listed[climber.pk]) == (2395, 2400)
    # Opp: 2200 + 20 x (2 x (1 - 0.23) - 2 x 0.25) = 2220.8.
    assert peak_ratings(pool) == {fallen.pk: 2410, opponent.pk: 2221, climber.pk: 2400, never.pk: 2395}
    _games(february, [(fallen, opponent, Result.DRAW), (climber, opponent, Result.DRAW),
                      (never, opponent, Result.DRAW)])
    # Fallen is rated 2395 now and still gets K 10; Never, rated 2395 as well, never reached 2400.
    assert _factors(pool, february) == {fallen.pk: 10, climber.pk: 10, never.pk: 20, opponent.pk: 20}
    records = sorted(RatingRecord.objects.filter(pool=pool).values_list("game_id", "member_id", "factor",
                                                                         "change"))
    pool_recalculate(pool=pool)
    assert sorted(RatingRecord.objects.filter(pool=pool).values_list(
        "game_id", "member_id", "factor", "change")) == records
    period_close(pool=pool)
    flags = dict(ListEntry.objects.filter(list__period__end=datetime.date(2025, 2, 28))
                 .values_list("member_id", "reached_2400"))
    assert flags == {fallen.pk: True, climber.pk: True, never.pk: False, opponent.pk: False}


def test_a_reopened_periods_list_is_no_history_while_reopened():
    pool = make_pool(rules="fide-2025", start=datetime.date(2025, 1, 1))
    opponent, climber = MemberFactory(), MemberFactory()
    publish_start_list(pool, {opponent: (2200, 100), climber: (2390, 100)})
    january = datetime.date(2025, 1, 15)
    _games(january, [(climber, opponent, Result.WHITE_WINS), (opponent, climber, Result.BLACK_WINS)])
    plist = period_close(pool=pool)
    assert peak_ratings(pool) == {opponent.pk: 2200, climber.pk: 2400}
    period_reopen(period=plist.period, reason="correction")
    assert peak_ratings(pool) == {opponent.pk: 2200, climber.pk: 2390}
    assert _factors(pool, january) == {climber.pk: 20, opponent.pk: 20}


def test_other_rule_sets_do_not_read_the_history():
    pool = make_pool(rules="oesb-2024")
    publish_start_list(pool, {MemberFactory(): 2450})
    assert peak_ratings(pool) == {}
