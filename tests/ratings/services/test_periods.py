import datetime

import pytest

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PeriodReopening, PeriodState, PoolMember, PublishedList, RatingRecord
from ratings.selectors.member import member_rating_blocks
from ratings.selectors.periods import pools_waiting_games
from ratings.selectors.tournament import (
    game_rating_changes,
    tournament_evaluation,
    tournament_evaluation_summary,
)
from ratings.services import RatingsError, game_record_result, period_close, period_reopen, pool_recalculate
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
    make_round,
    publish_start_list,
    unplayed_game,
)
from tests.ratings.services.scenario import build, play
from tests.ratings.services.test_recalc import snapshot

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


def test_pending_games_are_carried_and_rated_when_the_newcomer_is_published():
    pool, rated, newcomers, first, second, rng = build()
    play(first, rng)
    period_close(pool=pool)
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


def test_reopen_needs_a_reason_is_recorded_and_republishing_replaces_the_list():
    pool, rated, newcomers, first, second, rng = build()
    play(first, rng)
    old = period_close(pool=pool)
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


def test_reopening_a_list_published_before_live_values_were_kept_evaluates_the_period():
    pool, rated, newcomers, first, second, rng = build()
    play(first, rng)
    plist = period_close(pool=pool)
    PublishedList.objects.filter(pk=plist.pk).update(live_values_kept=False)
    PoolMember.objects.filter(pool=pool).update(live_games=0)  # whatever is stored is replaced

    period_reopen(period=plist.period, reason="Korrektur")

    games = dict(PoolMember.objects.filter(pool=pool).values_list("member_id", "live_games"))
    assert games[rated[0].pk] == ListEntry.objects.get(list=plist, member=rated[0]).period_games > 0
