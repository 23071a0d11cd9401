"""What closing a period leaves unfinished (ratings.selectors.period_close_preview)."""

import datetime

import pytest

from clubrating.tournaments.models import Result
from ratings.models import RatingPeriod
from ratings.selectors import period_close_preview
from ratings.services import game_record_result
from tests.factories import MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, unplayed_game

pytestmark = pytest.mark.django_db

D = datetime.date


def test_open_games_in_the_period_and_pending_players_are_listed_later_games_not():
    pool = make_pool(start=D(2026, 1, 1))
    a, b, c, d = (MemberFactory(last_name=n) for n in ("Adler", "Bauer", "Czech", "Neu"))
    publish_start_list(pool, {a: (1800, 20), b: (1700, 20), c: (1600, 20)})
    spring = TournamentFactory(name="Frühjahr", start_date=D(2026, 3, 1))
    r1 = RoundFactory(tournament=spring, number=1, date=D(2026, 3, 1))
    r2 = RoundFactory(tournament=spring, number=2, date=D(2026, 3, 8))
    unplayed_game(r1, a, b)
    unplayed_game(r2, a, c)
    unplayed_game(r2, b, d, board=2)
    game_record_result(game=unplayed_game(r1, c, d, board=2), result=Result.DRAW)
    summer = TournamentFactory(name="Sommer", start_date=D(2026, 6, 28))
    unplayed_game(RoundFactory(tournament=summer, number=1, date=D(2026, 6, 28)), a, b)
    unplayed_game(RoundFactory(tournament=summer, number=2, date=D(2026, 7, 5)), a, c)  # after the end
    preview = period_close_preview(period=RatingPeriod.objects.get(pool=pool))
    assert [(t.tournament.name, t.open_games, t.rounds) for t in preview.tournaments] == [
        ("Frühjahr", 3, [1, 2]), ("Sommer", 1, [1])]
    assert preview.open_games == 4
    # The newcomer's one game waits, and so does Czech's side of it (ratings.md §1.7).
    assert [(p.member.last_name, p.games, p.newcomer) for p in preview.pending] == [
        ("Czech", 1, False), ("Neu", 1, True)]
