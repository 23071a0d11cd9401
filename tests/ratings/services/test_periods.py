import datetime

import pytest

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PeriodState, PoolMember, RatingRecord
from ratings.selectors.member import member_rating_blocks
from ratings.selectors.periods import pools_waiting_games
from ratings.selectors.tournament import (
    game_rating_changes,
    tournament_evaluation,
    tournament_evaluation_summary,
)
from ratings.services import game_record_result, period_close, period_reopen
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
    make_round,
    publish_start_list,
    unplayed_game,
)
from tests.ratings.services.scenario import build, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_close_publishes_the_list_and_opens_the_next_half_year():
    pool = make_pool()
    a, b, c = MemberFactory(last_name="A"), MemberFactory(last_name="B"), MemberFactory(last_name="C")
    publish_start_list(pool, {a: (1830, 10), b: (1980, 10), c: (1500, 3)})
    game_record_result(
        game=unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b), result=Result.DRAW
    )

    plist = period_close(pool=pool)

    entries = {e.member_id: e for e in ListEntry.objects.filter(list=plist)}
    assert [
        (e.rank, e.rating, e.change, e.games_count, e.period_games)
        for e in sorted(entries.values(), key=lambda e: e.rank)
    ] == [(1, 1976, -4, 11, 1), (2, 1835, 5, 11, 1), (3, 1500, 0, 3, 0)]
    assert plist.valid_from == datetime.date(2025, 7, 1)
    periods = list(pool.periods.order_by("start").values_list("start", "end", "state"))
    assert periods == [
        (datetime.date(2025, 1, 1), datetime.date(2025, 6, 30), PeriodState.CLOSED),
        (datetime.date(2025, 7, 1), datetime.date(2025, 12, 31), PeriodState.OPEN),
    ]
    assert PoolMember.objects.get(pool=pool, member=a).rating == 1835


@pytest.mark.parametrize(
    ("rules", "end"),
    [
        ("oesb-2024", datetime.date(2025, 3, 31)),
        ("fide-2024", datetime.date(2025, 1, 31)),
        ("dsb-1990", datetime.date(2025, 3, 31)),
        ("egf-classic", datetime.date(2025, 1, 31)),
    ],
)
def test_period_calendar_per_preset(rules, end):
    pool = make_pool(rules=rules)
    assert pool.periods.get().end == end


def test_reopen_keeps_the_calculation_of_games_that_wait_again_and_readers_show_none():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    period_close(pool=pool)  # 2025-H1 closed, 2025-H2 open
    game = unplayed_game(make_round(start_date=datetime.date(2025, 9, 1)), a, b)
    game_record_result(game=game, result=Result.WHITE_WINS)
    rated = sorted(RatingRecord.objects.filter(game=game).values_list("period", "own_rating", "change"))
    assert [change for _p, _o, change in rated] == [-8.094486942120358, 6.8172804021022495]

    period_reopen(period=pool.periods.get(start=datetime.date(2025, 1, 1)), reason="Korrektur")

    # The game waits in its period again. It keeps its calculation (closing again writes only
    # what the new list changes), but no reader shows a calculation against a list it is not
    # rated with.
    following = pool.periods.get(start=datetime.date(2025, 7, 1))
    assert following.state == PeriodState.WAITING
    waiting = RatingRecord.objects.filter(game=game)
    assert sorted(waiting.values_list("period", "own_rating", "change")) == rated
    (board,) = game_rating_changes([game.pk])[game.pk]
    assert (board.white_change, board.black_change, board.pending) == (None, None, False)
    assert (board.white_waits_for_period, board.black_waits_for_period) == (True, True)
    (shown,) = [r for block in member_rating_blocks(a) for r in block.records]
    assert (shown.change, shown.own_rating, shown.pending) == (None, None, False) and shown.waits_for_period
    assert pools_waiting_games(pool_ids=[pool.pk])[pool.pk].behind_reopened == 1
    for evaluate in (tournament_evaluation, tournament_evaluation_summary):
        (evaluation,) = evaluate(game.round.tournament)
        assert [(row.games, row.pending, row.change) for row in evaluation.rows] == [(0, 1, 0.0)] * 2
    assert PoolMember.objects.get(pool=pool, member=a).live_rating == 1950
    # A game entered meanwhile and dated in the waiting period waits in it too.
    later = unplayed_game(make_round(start_date=datetime.date(2025, 10, 1)), b, a)
    game_record_result(game=later, result=Result.DRAW)
    assert list(RatingRecord.objects.filter(game=later).values_list("period", "change")) == [
        (following.pk, None)
    ] * 2

    period_close(pool=pool)
    following.refresh_from_db()
    assert following.state == PeriodState.OPEN
    # Nothing changed in the reopened period: the first game is rated exactly as before; the
    # second with the same published ratings.
    assert sorted(waiting.values_list("period", "own_rating", "change")) == rated
    assert rated[0][0] == following.pk
    assert sorted(RatingRecord.objects.filter(game=later).values_list("own_rating", "change")) == [
        (1820.0, 4.38751305787964), (1950.0, -3.6952195978977502)
    ]


@pytest.mark.parametrize("rules", ["oesb-2024", "oesb-classic", "fide-2024"])
def test_closing_publishes_the_live_values_which_equal_a_whole_evaluation(rules):
    """Closing takes the list from the live values the saves kept current; they are exactly
    what evaluating the whole period once more gives (newcomers, pending games, floors)."""
    from ratings.services.evaluation import period_evaluate
    from ratings.services.periods import list_entries, live_entries
    from ratings.services.pools import open_period

    pool, rated, newcomers, first, second, rng = build(rules=rules)
    play(first, rng)
    play(first[:4], rng)  # corrections
    live = live_entries(pool)
    result, state, _recs = period_evaluate(pool, open_period(pool), live=False)
    assert live == list_entries(state, result)
    if rules.startswith("oesb"):  # (the FIDE calendar's first period holds none of these games)
        assert any(e.period_games for e in live.values()) and any(e.start_value for e in live.values())


@pytest.mark.parametrize("rules", ["oesb-classic", "fide-2024"])
def test_reopening_restores_the_live_values_kept_at_closing_which_equal_a_whole_evaluation(
    rules, monkeypatch
):
    """Reopening does not evaluate the period again: it restores the live values kept with its
    list, and returns the games carried on as pending; records and every live value then equal
    what evaluating the whole period gives."""
    from django.db import transaction

    from ratings.services import periods
    from ratings.services.evaluation import LIVE_FIELDS, period_evaluate

    pool, rated, newcomers, first, second, rng = build(rules=rules)
    play(first, rng)
    plist = period_close(pool=pool)
    play(second, rng)  # the next period's games wait again on reopening; the carried ones return
    assert plist.live_values_kept and RatingRecord.objects.filter(pool=pool, pending=False).exclude(
        period=plist.period
    ).exists()

    def state():
        members = PoolMember.objects.filter(pool=pool).order_by("member_id")
        records = RatingRecord.objects.filter(pool=pool).order_by("pk")
        return (
            list(members.values_list("member_id", "rating", "games_count", *LIVE_FIELDS)),
            list(records.values_list("pk", "period_id", "pending", "solo", "own_rating", "change")),
        )

    monkeypatch.setattr(periods, "period_evaluate", None)  # called, it would fail
    period_reopen(period=plist.period, reason="Korrektur")
    restored = state()
    with transaction.atomic():
        period_evaluate(pool, plist.period)
        evaluated = state()
        transaction.set_rollback(True)
    assert restored == evaluated
    if rules == "oesb-classic":  # the scenario's newcomers and pending games are in this period
        assert any(row[-1] for row in restored[0]) and any(row[-2] is not None for row in restored[0])
