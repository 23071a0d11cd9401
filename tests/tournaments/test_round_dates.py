"""Dated rounds and the number of rounds of a round robin (tournament services and selectors)."""

import datetime

import pytest

from clubrating.tournaments import selectors, services
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import TournamentKind
from tests.factories import MemberFactory, TournamentFactory

pytestmark = pytest.mark.django_db

D = datetime.date


def test_a_round_robin_takes_its_rounds_from_the_players_and_dates_them_by_schedule():
    tournament = TournamentFactory(kind=TournamentKind.ROUND_ROBIN, start_date=D(2026, 9, 1),
                                   round_interval_days=14, rounds_count=1)
    for _ in range(5):
        services.player_register(tournament=tournament, member=MemberFactory())
    tournament.refresh_from_db()
    assert (selectors.rounds_planned(tournament), tournament.rounds_count) == (5, 5)  # odd: n rounds
    first = services.round_pair(tournament=tournament)
    second = services.round_pair(tournament=tournament, date=D(2026, 9, 20))
    third = services.round_pair(tournament=tournament)
    assert [first.date, second.date, third.date] == [D(2026, 9, 1), D(2026, 9, 20), D(2026, 9, 29)]
    tournament.double_round_robin = True
    assert selectors.rounds_planned(tournament) == 10


def test_a_round_date_must_lie_within_the_tournament():
    tournament = TournamentFactory(kind=TournamentKind.ROUND_ROBIN, start_date=D(2026, 9, 1),
                                   end_date=D(2026, 9, 30))
    for _ in range(2):
        services.player_register(tournament=tournament, member=MemberFactory())
    rnd = services.round_pair(tournament=tournament)
    with pytest.raises(TournamentRefused, match="01.09.2026 – 30.09.2026"):
        services.round_date_set(round=rnd, date=D(2026, 10, 1))
    games = list(rnd.games.values_list("pk", flat=True))
    assert services.round_date_set(round=rnd, date=D(2026, 9, 3)) == games
    rnd.refresh_from_db()
    assert rnd.date == D(2026, 9, 3)
