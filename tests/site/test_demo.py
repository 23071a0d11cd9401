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


def test_demo_has_a_tournament_open_for_registration_with_check_in(demo_club):
    from django.utils import timezone

    from clubrating.tournaments.models import EntryState, EntryWindow

    call_command("seed_demo", verbosity=0)
    tournament = Tournament.objects.get(name="Winter-Open")
    window = EntryWindow.objects.get(tournament=tournament)
    assert window.opens_at <= timezone.now() < window.closes_at
    assert (window.members_may_enter, window.guests_may_enter, window.check_in) == (True, True, True)
    assert tournament.players.count() == 8
    assert tournament.players.filter(checked_in_at__isnull=False).count() == 5
    waiting = list(tournament.entries.order_by("pk"))
    assert [e.state for e in waiting] == [EntryState.PENDING] * 3
    assert [e.member is None for e in waiting] == [False, False, True]
    assert waiting[2].full_name == "Nagy, Péter"
    assert not Game.objects.filter(round__tournament=tournament).exists()


def test_demo_has_a_minor_without_consent(demo_club):
    import datetime

    from clubrating.clubs.privacy import Audience, member_page_visible

    call_command("seed_demo", verbosity=0)
    minor = Member.objects.get(national_id="AT100900")
    assert (minor.full_name, minor.birth_date, minor.guardian_consent_on) == (
        "Klein, Mia", datetime.date(2012, 5, 14), None)
    assert member_page_visible(minor, audience=Audience.VISITOR) is False
