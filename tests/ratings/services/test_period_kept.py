"""Closing a reopened period again with the waiting period's calculations kept
(ratings.services.period_kept): after corrections of every kind, in the reopened period and in
the waiting one, closing again must write exactly what a closing that evaluates the whole waiting
period writes: every published entry, record, member value, live value and rank, and the live
values kept with the list. SQLite and PostgreSQL."""

import copy
import datetime
from types import SimpleNamespace

import pytest
from django.db import transaction

from clubrating.tournaments.models import Result
from ratings.models import (
    ClosingLiveValues,
    ListEntry,
    LiveLevel,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingRecord,
)
from ratings.services import game_record_result, period_close, period_reopen
from ratings.services import period_kept as kept_module
from ratings.services.lists import current_list
from ratings.services.period_members import COLUMNS, WAITING_FIELDS
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game
from tests.ratings.services.scenario import RESULTS, round_robin_games
from tests.ratings.services.test_live_ranks import scratch, stored
from tests.ratings.services.test_period_reclose import ENTRY
from tests.ratings.services.test_recalc import FIELDS

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]

LIVE = ("member_id", *COLUMNS, "live_place", *WAITING_FIELDS)
KEPT = ("member_id", "live_rating", "live_change", "live_games", "live_points", "live_expected",
        "start_value", "pending_games")


def written(pool, plist) -> tuple:
    """What closing writes: records, members (published, live, place among ties, kept), the list's
    entries, the live values kept with it and the live list's levels."""
    records = list(RatingRecord.objects.filter(pool=pool).order_by("pk").values_list(
        "pk", *FIELDS, "rated_score"))
    members = list(PoolMember.objects.filter(pool=pool).order_by("member_id").values_list(*LIVE))
    entries = list(ListEntry.objects.filter(list=plist).order_by("rank").values_list(*ENTRY))
    closing = list(ClosingLiveValues.objects.filter(list=plist).order_by("member_id").values_list(*KEPT))
    levels = list(LiveLevel.objects.filter(pool=pool).order_by("-rating").values_list(
        "rating", "above", "size"))
    return records, members, entries, closing, levels


def _game(day, white, black, result):
    game = unplayed_game(make_round(start_date=day), white, black)
    game_record_result(game=game, result=result)
    return game


@pytest.fixture(scope="module")
def reopened_once(django_db_setup, django_db_blocker):
    """``reopened``, built once for the module: inside a transaction rolled back when the module is
    done; each test runs in a savepoint within it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _reopened()
        transaction.set_rollback(True)


@pytest.fixture
def reopened(reopened_once, db):
    """The scenario's objects copied for one test (what a test sets on one does not reach the next)."""
    return copy.deepcopy(reopened_once)


def _reopened():
    """A pool (half-years, members leave the list after a year without a game) with three
    closed periods and games waiting in the fourth, its third period reopened. ``x`` played his
    only game of the reopened period; newcomers get start values there and in the waiting one,
    newcomers[3] stays pending (§1.7)."""
    import random

    rng = random.Random(11)
    pool = make_pool(rules="oesb-classic", start=datetime.date(2024, 1, 1), inactivity_years=1)
    rated = [MemberFactory() for _ in range(6)]
    newcomers = [MemberFactory() for _ in range(5)]
    x = rated[5]
    publish_start_list(pool, {m: (1500 + 90 * i, 10 * i) for i, m in enumerate(rated)})

    def play(games):
        for game in games:
            game_record_result(game=game, result=rng.choice(RESULTS))

    play(round_robin_games(rated, datetime.date(2024, 3, 1), "Frühjahr 24"))
    period_close(pool=pool)
    play(round_robin_games(rated[:5], datetime.date(2024, 9, 1), "Herbst 24"))
    period_close(pool=pool)
    third = round_robin_games(rated[:5] + newcomers[:3], datetime.date(2025, 3, 1), "Frühjahr 25")
    third += round_robin_games(rated[:2] + newcomers[3:4], datetime.date(2025, 5, 1), "Mai 25")
    play(third)
    x_game = _game(datetime.date(2025, 6, 2), x, rated[0], Result.DRAW)
    plist = period_close(pool=pool)
    fourth = round_robin_games(rated[:3] + newcomers[2:] + [x], datetime.date(2025, 9, 1), "Herbst 25")
    # (Rated players only, none of them a newcomer's opponent but rated[1]: evaluated again
    # only when their inputs change.)
    fourth += round_robin_games([rated[1], rated[3], rated[4]], datetime.date(2025, 10, 6), "Liga 25")
    play(fourth)
    period_reopen(period=plist.period, reason="Korrektur")
    return pool, rated, newcomers, x, third, x_game, fourth


def _full_and_kept(pool, monkeypatch) -> tuple[tuple, tuple, list]:
    """Closing once evaluating the whole waiting period (rolled back), then as the service does;
    what each wrote, and the members the second evaluated."""
    with transaction.atomic():
        monkeypatch.setattr(kept_module, "successor_kept_evaluate", lambda *args: False)
        monkeypatch.setattr("ratings.services.periods.successor_kept_evaluate", lambda *args: False)
        full = written(pool, period_close(pool=pool))
        transaction.set_rollback(True)
    monkeypatch.undo()
    evaluated = Evaluated()
    affected = kept_module._affected

    def spy(*args, **kwargs):
        found = affected(*args, **kwargs)
        evaluated.append(found[0])
        return found

    monkeypatch.setattr(kept_module, "_affected", spy)
    carry = kept_module._carry

    def carry_spy(*args):
        seeds, restored = carry(*args)
        evaluated.carried = seeds
        return seeds, restored

    monkeypatch.setattr(kept_module, "_carry", carry_spy)
    again = written(pool, period_close(pool=pool))
    return full, again, evaluated


class Evaluated(list):
    """The members each evaluation of closing again took (``_affected``), and ``carried``: the
    members of the carried records whose calculation had to be made again (``_carry``)."""

    carried: set[int] | None = None


def test_closing_again_without_corrections_evaluates_only_the_games_carried(reopened, monkeypatch):
    pool, rated, newcomers, _x, third, *_rest = reopened
    waiting = PoolMember.objects.filter(pool=pool, waiting_games__isnull=False).count()
    assert waiting == PoolMember.objects.filter(pool=pool).count()  # kept for every member

    full, again, evaluated = _full_and_kept(pool, monkeypatch)

    assert again == full
    assert stored(pool) == scratch(pool)
    # The pending games the reopened period carries again (newcomers[3]'s) return with the
    # calculations they had before the reopening: none is made again for them. Only newcomers[4]
    # (six games, all pending: counted as games and as pending games, not as his six records) is
    # evaluated, with his group (newcomers[2] and [3], who met him) and his opponents; not the
    # members who played none of them.
    assert evaluated.carried == set()
    assert len(evaluated) == 1 and newcomers[4].pk in evaluated[0] and newcomers[3].pk in evaluated[0]
    assert {rated[3].pk, rated[4].pk}.isdisjoint(evaluated[0])
    returning = RatingRecord.objects.filter(pool=pool, game__in=[g.pk for g in third], period__start=(
        datetime.date(2025, 7, 1)))
    assert returning.count() == 4 and returning.filter(rated_score__isnull=False).count() == 4
    assert not PoolMember.objects.filter(pool=pool, waiting_games__isnull=False).exists()
    # Nothing changed the list: the withdrawn one stands again, no list is written.
    period_lists = PublishedList.objects.filter(pool=pool, period__start=datetime.date(2025, 1, 1))
    assert list(period_lists.values_list("superseded", flat=True)) == [False]
    assert not period_lists.get().withdrawn and current_list(pool) == period_lists.get()


def _other_result(game) -> str:
    game.refresh_from_db()
    return Result.DRAW if game.result != Result.DRAW else Result.WHITE_WINS


def _league_game(fourth, rated):
    """The waiting period's game between rated[3] and rated[4] (neither meets a newcomer)."""
    pair = {rated[3].pk, rated[4].pk}
    return next(g for g in fourth if {g.white_id, g.black_id} == pair)


def _pending_game(third, newcomers):
    return next(g for g in third if newcomers[3].pk in (g.white_id, g.black_id))


# Each correction alone (so that no other one makes the members it moves evaluated), then all.
CORRECTIONS = {
    # In the reopened period.
    "result": lambda s: game_record_result(
        game=s.third[0], result=_other_result(s.third[0])),
    # x's only game there: he leaves the list (a year without a game, ÖSB TUWO § 27 d) and is a
    # newcomer in the waiting period.
    "game removed, member inactive": lambda s: game_record_result(
        game=s.x_game, result=Result.NOT_PLAYED),
    # rated[1]'s rating moves: his waiting league games against rated[3] and rated[4] too.
    "game added": lambda s: _game(
        datetime.date(2025, 6, 3), s.rated[1], s.rated[4], Result.BLACK_WINS),
    "newcomer's game": lambda s: _game(
        datetime.date(2025, 6, 4), s.newcomers[3], s.rated[3], Result.WHITE_WINS),
    # A game newcomers[3] left pending (§1.7), carried again: evaluated in the reopened period
    # meanwhile, its record holds the score evaluated there, but not its waiting calculation.
    "pending game's result": lambda s: game_record_result(
        game=_pending_game(s.third, s.newcomers), result=_other_result(_pending_game(s.third, s.newcomers))),
    # In the waiting period.
    "waiting result": lambda s: game_record_result(
        game=_league_game(s.fourth, s.rated), result=_other_result(_league_game(s.fourth, s.rated))),
    "waiting game removed": lambda s: game_record_result(
        game=_league_game(s.fourth, s.rated), result=Result.NOT_PLAYED),
    "waiting game added": lambda s: _game(
        datetime.date(2025, 10, 20), s.rated[4], s.rated[3], Result.WHITE_WINS),
}


@pytest.mark.parametrize("corrections", [[name] for name in CORRECTIONS] + [list(CORRECTIONS)],
                         ids=[*CORRECTIONS, "all"])
def test_closing_again_after_corrections_writes_what_a_whole_evaluation_writes(
    reopened, monkeypatch, corrections
):
    pool, rated, newcomers, x, third, x_game, fourth = reopened
    scene = SimpleNamespace(rated=rated, newcomers=newcomers, third=third, x_game=x_game, fourth=fourth)
    for name in corrections:
        CORRECTIONS[name](scene)
    before = written(pool, None)

    full, again, evaluated = _full_and_kept(pool, monkeypatch)

    assert again == full
    assert again[0] != before[0] or again[1] != before[1]
    assert stored(pool) == scratch(pool)
    assert len(evaluated) == 1
    if "game removed, member inactive" in corrections:
        assert x.pk not in {row[0] for row in again[2]}  # left the list
        member = PoolMember.objects.get(pool=pool, member=x)
        assert (member.rating, member.live_rating) == (None, None)  # a newcomer, his games pending
        assert x.pk in evaluated[0]
    if corrections == ["game added"]:
        # rated[4]'s waiting league games are rated against his new rating.
        league = RatingRecord.objects.filter(pool=pool, member=rated[3], opponent=rated[4],
                                             period__start=datetime.date(2025, 7, 1))
        assert {rated[1].pk, rated[3].pk, rated[4].pk} <= evaluated[0]
        assert league.get().opponent_rating == next(row[2] for row in again[2] if row[0] == rated[4].pk)
    assert pool.periods.get(start=datetime.date(2025, 7, 1)).state == PeriodState.OPEN
    # A list the corrections change replaces the withdrawn one; corrections of waiting games
    # alone leave it standing.
    period_lists = PublishedList.objects.filter(pool=pool, period__start=datetime.date(2025, 1, 1))
    waiting_only = all(name.startswith("waiting") for name in corrections)
    assert list(period_lists.order_by("pk").values_list("superseded", flat=True)) == (
        [False] if waiting_only else [True, False])
