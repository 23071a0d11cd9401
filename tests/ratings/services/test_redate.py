"""Re-dating games (a round moved): the rating records follow to the period of the new date."""

import datetime

import pytest

from clubrating.tournaments import services as tournament_services
from clubrating.tournaments.models import Result
from ratings.models import PeriodState, RatingPeriod, RatingRecord
from ratings.services import RatingsError, game_record_result, games_redate, period_close
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, unplayed_game
from tests.ratings.services.test_consistency import recalculated
from tests.ratings.services.test_recalc import snapshot

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def played():
    pool = make_pool(start=D(2026, 1, 1))  # half-years
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: (1800, 20), b: (1700, 20)})
    tournament = TournamentFactory(start_date=D(2026, 6, 1), end_date=D(2026, 7, 31))
    rnd = RoundFactory(tournament=tournament, number=1, date=D(2026, 6, 20))
    game = unplayed_game(rnd, a, b)
    game_record_result(game=game, result=Result.WHITE_WINS)
    return pool, rnd, game


def periods_of(game):
    return sorted(RatingRecord.objects.filter(game=game).values_list("period_id", "played_on"))


def test_a_moved_round_takes_its_records_to_the_new_date(played):
    pool, rnd, game = played
    first = RatingPeriod.objects.get(pool=pool)
    assert periods_of(game) == [(first.pk, D(2026, 6, 20))] * 2
    moved = tournament_services.round_date_set(round=rnd, date=D(2026, 7, 3))
    assert games_redate(game_ids=moved) == 2
    # After the open period: the records wait without a period, and the live values drop them.
    assert periods_of(game) == [(None, D(2026, 7, 3))] * 2
    assert snapshot(pool) == recalculated(pool)
    games_redate(game_ids=tournament_services.round_date_set(round=rnd, date=D(2026, 6, 27)))
    assert periods_of(game) == [(first.pk, D(2026, 6, 27))] * 2
    assert snapshot(pool) == recalculated(pool)


def test_moving_out_of_or_into_a_closed_period_is_refused(played):
    pool, rnd, game = played
    period_close(pool=pool)
    with pytest.raises(RatingsError, match="20.06.2026 liegt in der abgeschlossenen Wertungsperiode 01.01"):
        games_redate(game_ids=tournament_services.round_date_set(round=rnd, date=D(2026, 7, 3)))
    later = RoundFactory(tournament=rnd.tournament, number=2, date=D(2026, 7, 10))
    other = unplayed_game(later, game.black, game.white)
    game_record_result(game=other, result=Result.DRAW)
    second = RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)
    with pytest.raises(RatingsError, match="30.06.2026 liegt in der abgeschlossenen Wertungsperiode"):
        games_redate(game_ids=tournament_services.round_date_set(round=later, date=D(2026, 6, 30)))
    # A game with its own date keeps it when its round moves.
    other.date = D(2026, 7, 10)
    other.save(update_fields=["date"])
    assert tournament_services.round_date_set(round=later, date=D(2026, 6, 30)) == []
    assert periods_of(other) == [(second.pk, D(2026, 7, 10))] * 2
