"""Closing a reopened period again (ratings.services.periods): the waiting period keeps its
records' calculations through the reopening and closing rewrites only what the new list changes,
so the result must equal a closing that never was reopened (without corrections: the same
records, members, live ranks and list; with corrections: what recalculating the pool gives),
and every live rank the one ranking the whole list from scratch gives. SQLite and PostgreSQL."""

import datetime

import pytest
from django.db import transaction

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PoolMember, RatingRecord
from ratings.services import game_record_result, period_close, period_reopen, pool_recalculate
from tests.ratings.factories import make_round, unplayed_game
from tests.ratings.services.scenario import build, play
from tests.ratings.services.test_live_ranks import scratch, stored
from tests.ratings.services.test_recalc import FIELDS

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]

ENTRY = ("member_id", "rank", "rating", "previous_rating", "change", "games_count", "period_games", "markers",
         "class_code", "start_value", "reached_2400")


def state(pool, plist) -> tuple:
    """Every record with its calculation, every member's published and live values and rank, and
    the list's entries: what closing writes."""
    records = list(RatingRecord.objects.filter(pool=pool).order_by("pk").values_list("pk", *FIELDS))
    members = list(PoolMember.objects.filter(pool=pool).order_by("member_id").values_list(
        "member_id", "rating", "games_count", "reached_2400", "live_rating", "live_change", "live_games",
        "live_points", "live_expected", "start_value", "pending_games", "live_place"))
    entries = list(ListEntry.objects.filter(list=plist).order_by("rank").values_list(*ENTRY))
    return records, members, entries


def test_closing_again_without_corrections_writes_what_the_first_closing_wrote():
    # (Half-year periods: the second half-year's games wait in it while the first is reopened.)
    pool, rated, newcomers, first, second, rng = build(rules="oesb-classic")
    play(first, rng)
    plist = period_close(pool=pool)
    play(second, rng)  # the next period's games, some against newcomers (pending, §1.7)
    before = state(pool, plist)
    assert any(row[8] for row in before[0]) and before[2]  # pending records; a list

    period_reopen(period=plist.period, reason="Korrektur")
    assert stored(pool) == scratch(pool)
    again = period_close(pool=pool)

    assert state(pool, again) == before
    assert stored(pool) == scratch(pool)


def test_closing_again_after_corrections_equals_a_recalculation():
    pool, rated, newcomers, first, second, rng = build(rules="oesb-classic")
    play(first, rng)
    plist = period_close(pool=pool)
    play(second, rng)
    kept = dict(RatingRecord.objects.filter(pool=pool, period__start=datetime.date(2025, 7, 1))
                .values_list("pk", "change"))

    period_reopen(period=plist.period, reason="Korrektur")
    # A correction in the reopened period moves ratings of the published list, and so the
    # waiting games' calculations; a game entered meanwhile waits in the waiting period.
    first[0].refresh_from_db()
    draw = first[0].result != Result.DRAW
    game_record_result(game=first[0], result=Result.DRAW if draw else Result.WHITE_WINS)
    game_record_result(game=first[1], result=Result.NOT_PLAYED)
    later = unplayed_game(make_round(start_date=datetime.date(2025, 9, 3)), rated[0], newcomers[4])
    game_record_result(game=later, result=Result.BLACK_WINS)
    assert stored(pool) == scratch(pool)
    reopened = state(pool, plist)
    with transaction.atomic():  # a recalculation meanwhile keeps the waiting calculations
        pool_recalculate(pool=pool)
        assert state(pool, plist) == reopened
        transaction.set_rollback(True)
    again = period_close(pool=pool)
    assert stored(pool) == scratch(pool)
    closed = state(pool, again)
    changed = dict(RatingRecord.objects.filter(pk__in=kept).values_list("pk", "change"))
    assert changed != kept  # the new list moved the waiting games' calculations

    pool_recalculate(pool=pool)

    assert state(pool, again) == closed
    assert stored(pool) == scratch(pool)
