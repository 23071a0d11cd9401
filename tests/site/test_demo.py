import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db

# Every test starts from the demo club seeded once for the module (``demo_club``, rolled back after
# the module): seeding is the slowest step of these tests, and each test runs ``seed_demo`` again,
# which must change nothing.


def _counts():
    return (Club.objects.count(), Member.objects.count(), Tournament.objects.count(),
            Game.objects.count(), User.objects.count())


def test_seed_demo_creates_the_demo_club_once(demo_club):
    call_command("seed_demo", verbosity=0)
    first = _counts()
    assert first[0] == 2
    assert first[1] >= 40
    assert first[2] >= 2
    call_command("seed_demo", verbosity=0)
    assert _counts() == first


def test_demo_tournaments_finished_and_running(demo_club):
    call_command("seed_demo", verbosity=0)
    finished = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    assert finished.players.count() == 10
    games = Game.objects.filter(round__tournament=finished)
    assert games.count() == 90  # 10 players, double round robin: 2 × 45 games
    assert not games.filter(result="").exists()
    running = Tournament.objects.get(name="Herbstopen 2026")
    assert Game.objects.filter(round__tournament=running, result="").exists()


def test_demo_logins(demo_club):
    call_command("seed_demo", verbosity=0)
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.get(username="official").groups.filter(name="officials").exists()
    member_user = User.objects.get(username="member")
    assert member_user.check_password("member")
    assert Member.objects.get(user=member_user).last_name


def test_demo_season_is_paired_by_the_app_and_dated(demo_club):
    """The demo is built through the services: the Swiss has no repeat pairing (the Dutch system
    of the pairing engine), every round is dated from its tournament's schedule, and the first
    half-year was closed while the club championship ran across its end."""
    import datetime

    from ratings.models import PeriodState, PublishedList, RatingPeriod, RatingRecord

    call_command("seed_demo", verbosity=0)
    swiss = Tournament.objects.get(name="Herbstopen 2026")
    games = Game.objects.filter(round__tournament=swiss)
    pairs = [frozenset(pair) for pair in games.values_list("white", "black")]
    assert len(pairs) == 50 and len(set(pairs)) == 50
    assert [r.date for r in swiss.rounds.order_by("number")] == [
        datetime.date(2026, 9, 4) + datetime.timedelta(days=14 * n) for n in range(5)]
    assert Game.objects.filter(round__tournament=swiss, result="").count() == 6
    championship = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    assert (championship.rounds_count, championship.tiebreaks) == (18, "DE,WIN,SB,KS")
    dates = [r.date for r in championship.rounds.order_by("number")]
    assert dates == [datetime.date(2026, 4, 3) + datetime.timedelta(weeks=n) for n in range(18)]
    first, second = RatingPeriod.objects.order_by("start")
    assert (first.end, first.state, second.state) == (datetime.date(2026, 6, 30), PeriodState.CLOSED,
                                                      PeriodState.OPEN)
    # Rounds 1-13 were published with the first period, rounds 14-18 count in the second.
    records = RatingRecord.objects.filter(game__round__tournament=championship)
    assert records.filter(period=first).count() == 13 * 5 * 2
    assert records.filter(period=second).count() == 5 * 5 * 2
    assert PublishedList.objects.filter(period=first, superseded=False).count() == 1
