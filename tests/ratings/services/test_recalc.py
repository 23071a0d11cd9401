import pytest

from ratings.models import PoolMember, RatingRecord
from ratings.services import period_close, pool_recalculate
from tests.ratings.services.scenario import build, play

pytestmark = pytest.mark.django_db

FIELDS = (
    "game_id",
    "member_id",
    "opponent_id",
    "period_id",
    "white",
    "played_on",
    "score",
    "pending",
    "solo",
    "own_rating",
    "opponent_rating",
    "difference",
    "expected",
    "factor",
    "change",
)


def snapshot(pool):
    records = sorted(RatingRecord.objects.filter(pool=pool).values_list(*FIELDS))
    live = sorted(
        PoolMember.objects.filter(pool=pool).values_list(
            "member_id", "rating", "games_count", "live_rating", "live_change", "live_games", "pending_games"
        )
    )
    return records, live


def test_recalculation_reproduces_incremental_entry_record_for_record():
    pool, rated, newcomers, first, second, rng = build()
    play(first, rng)
    period_close(pool=pool)
    play(second, rng)
    before = snapshot(pool)
    assert any(r[7] for r in before[0]), "the scenario has pending games"

    count = pool_recalculate(pool=pool)

    assert count == len(before[0]) == 2 * (len(first) + len(second))
    assert snapshot(pool) == before


def test_recalculation_of_entries_out_of_order_and_corrected():
    pool, rated, newcomers, first, second, rng = build(seed=3)
    play(reversed(first), rng)
    play(first[:5], rng)  # corrections
    before = snapshot(pool)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before


def test_recalculation_after_two_closes_keeps_solo_carried_records():
    pool, rated, newcomers, first, second, rng = build(seed=11)
    play(first, rng)
    period_close(pool=pool)
    play(second, rng)
    period_close(pool=pool)
    before = snapshot(pool)
    assert any(r[8] for r in before[0]), "a record is carried for one side only"
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before
