"""The benchmarks' size databases (``benchmarks/web_bench.py``'s ``_seed``, members and games
written in sets by ``benchmarks/bench_seed.py``) hold the ratings the app computes."""

import datetime
import random
import sys
from pathlib import Path

import pytest

from clubrating.clubs.models import Member
from clubrating.tournaments.models import Game
from ratings.models import PeriodState, PoolMember, RatingPeriod, RatingRecord
from ratings.services import pool_recalculate
from ratings.services.recalc import VALUES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import web_bench  # noqa: E402

pytestmark = pytest.mark.django_db

LIVE = ("rating", "games_count", "live_rating", "live_change", "live_games", "live_points",
        "live_expected", "start_value", "pending_games", "live_place")


def _state(pool) -> tuple[list, list]:
    records = sorted(RatingRecord.objects.filter(pool=pool).values_list("game_id", "member_id", *VALUES))
    members = sorted(PoolMember.objects.filter(pool=pool).values_list("member_id", *LIVE))
    return records, members


def test_a_small_size_holds_exactly_the_ratings_a_recalculation_by_the_app_gives():
    pool = web_bench._seed(50, random.Random(50))

    assert Member.objects.count() == 50
    assert Game.objects.count() == 400  # 2 periods × 10 tournaments × 10 rounds × 2 boards
    periods = list(RatingPeriod.objects.filter(pool=pool).order_by("start").values_list("start", "state"))
    assert periods == [(datetime.date(2023, 1, 1), PeriodState.CLOSED),
                       (datetime.date(2023, 4, 1), PeriodState.OPEN)]
    records, members = _state(pool)
    assert len(records) == 800
    change = VALUES.index("change") + 2
    assert sum(1 for r in records if r[change] is not None) == 752  # the rest wait for first ratings
    assert len(members) == 50

    pool_recalculate(pool=pool)

    assert _state(pool) == (records, members)
