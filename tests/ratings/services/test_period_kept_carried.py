"""Closing a reopened period again: the games the reopened period had left pending (§1.7),
carried again into the waiting period, get back the calculations they had there unless a
correction reached them (ratings.services.period_kept). Each scenario is built for its test (the
pools of ``test_period_kept``'s module-wide scenario would rate these games too)."""

import datetime

import pytest

from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PeriodReopening, RatingRecord
from ratings.services import game_record_result, period_close, period_reopen
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, publish_start_list
from tests.ratings.services.scenario import RESULTS
from tests.ratings.services.test_live_ranks import scratch, stored
from tests.ratings.services.test_period_kept import _full_and_kept, _game, _other_result

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]


@pytest.fixture
def carried(db):
    """A newcomer n played two games in the third period, left pending (§1.7, too few for a
    start value), and five more in the fourth, waiting while the third is reopened, which give
    him his start value there."""
    pool = make_pool(rules="oesb-classic", start=datetime.date(2024, 1, 1))
    rated = [MemberFactory() for _ in range(6)]
    n = MemberFactory()
    publish_start_list(pool, {m: (1500 + 90 * i, 10 * i) for i, m in enumerate(rated)})
    _game(datetime.date(2024, 3, 1), rated[0], rated[1], Result.DRAW)
    period_close(pool=pool)
    _game(datetime.date(2024, 9, 1), rated[0], rated[2], Result.WHITE_WINS)
    period_close(pool=pool)
    pending = [_game(datetime.date(2025, 3, 1), n, rated[0], Result.WHITE_WINS),
               _game(datetime.date(2025, 3, 2), rated[1], n, Result.DRAW)]
    _game(datetime.date(2025, 3, 3), rated[2], rated[3], Result.BLACK_WINS)
    plist = period_close(pool=pool)
    for day, opponent in enumerate(rated[1:], start=1):
        _game(datetime.date(2025, 9, day), opponent, n, RESULTS[day % len(RESULTS)])
    _game(datetime.date(2025, 9, 10), rated[4], rated[5], Result.DRAW)
    period_reopen(period=plist.period, reason="Korrektur")
    return pool, rated, n, pending


def test_closing_again_gives_the_carried_games_their_calculations_back(carried, monkeypatch):
    pool, rated, n, pending = carried
    waiting = datetime.date(2025, 7, 1)
    returned = RatingRecord.objects.filter(pool=pool, game__in=pending)
    assert set(returned.values_list("period__start", "pending", "change")) == {
        (datetime.date(2025, 1, 1), True, None)}
    reopening = PeriodReopening.objects.get(period__start=datetime.date(2025, 1, 1))
    assert sorted(row[0] for row in reopening.carried) == sorted(returned.values_list("pk", flat=True))

    full, again, evaluated = _full_and_kept(pool, monkeypatch)

    assert again == full
    assert stored(pool) == scratch(pool)
    assert evaluated.carried == set() and evaluated == [set()]  # nothing evaluated again
    reopening.refresh_from_db()
    assert reopening.carried == []  # read once, then dropped
    # Rated in the waiting period now, with the calculations they had there before the reopening:
    # the rated players' sides a change, n's none (they count for his start value).
    assert sorted((start, member, pending, change is None) for start, member, pending, change in (
        returned.values_list("period__start", "member_id", "pending", "change"))) == sorted([
        (waiting, rated[0].pk, False, False), (waiting, rated[1].pk, False, False),
        (waiting, n.pk, False, True), (waiting, n.pk, False, True)])


@pytest.mark.parametrize("correction", ["pending game's result", "newcomer's game"])
def test_closing_again_evaluates_the_carried_games_a_correction_changed(carried, monkeypatch, correction):
    pool, rated, n, pending = carried
    if correction == "pending game's result":
        game_record_result(game=pending[0], result=_other_result(pending[0]))
    else:  # n's third game of the period: his games there are rated now, none carried
        _game(datetime.date(2025, 6, 1), n, rated[5], Result.DRAW)

    full, again, evaluated = _full_and_kept(pool, monkeypatch)

    assert again == full
    assert stored(pool) == scratch(pool)
    assert n.pk in evaluated[0]


@pytest.fixture
def solo(db):
    """Newcomer n gets his start value in the third period, where newcomer m played only him:
    m's side waits (§1.7) and is carried alone into the fourth, where m gets his start value
    against players n never met. The third period reopened."""
    pool = make_pool(rules="oesb-classic", start=datetime.date(2024, 1, 1))
    rated = [MemberFactory() for _ in range(15)]
    n, m = MemberFactory(), MemberFactory()
    publish_start_list(pool, {p: (1500 + 60 * i, 10 * i) for i, p in enumerate(rated)})
    _game(datetime.date(2024, 3, 1), rated[0], rated[1], Result.DRAW)
    period_close(pool=pool)
    _game(datetime.date(2024, 9, 1), rated[0], rated[2], Result.WHITE_WINS)
    period_close(pool=pool)
    games = [_game(datetime.date(2025, 3, day), n, opponent, RESULTS[day % len(RESULTS)])
             for day, opponent in enumerate(rated[:7], start=1)]
    _game(datetime.date(2025, 4, 1), m, n, Result.DRAW)
    plist = period_close(pool=pool)
    for day, opponent in enumerate(rated[7:], start=1):  # (none of them met n)
        _game(datetime.date(2025, 9, day), opponent, m, RESULTS[day % len(RESULTS)])
    period_reopen(period=plist.period, reason="Korrektur")
    return pool, n, m, games


def test_closing_again_evaluates_a_game_carried_alone_whose_opponent_moved(solo, monkeypatch):
    pool, n, m, games = solo
    carried = RatingRecord.objects.get(pool=pool, member=m, opponent=n)
    assert ListEntry.objects.filter(list__period__start=datetime.date(2025, 1, 1), member=n).exists()
    game_record_result(game=games[0], result=_other_result(games[0]))  # it moves

    full, again, evaluated = _full_and_kept(pool, monkeypatch)

    assert again == full
    assert stored(pool) == scratch(pool)
    carried.refresh_from_db()
    assert carried.solo and carried.period.start == datetime.date(2025, 7, 1)
    assert m.pk in evaluated[0]
