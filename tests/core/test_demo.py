import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def _counts():
    return (Club.objects.count(), Member.objects.count(), Tournament.objects.count(),
            Game.objects.count(), User.objects.count())


def test_seed_demo_creates_the_demo_club_once():
    call_command("seed_demo", verbosity=0)
    first = _counts()
    assert first[0] == 2
    assert first[1] >= 40
    assert first[2] >= 2
    call_command("seed_demo", verbosity=0)
    assert _counts() == first


def test_demo_tournaments_finished_and_running():
    call_command("seed_demo", verbosity=0)
    finished = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    assert finished.players.count() == 10
    games = Game.objects.filter(round__tournament=finished)
    assert games.count() == 90  # 10 players, double round robin: 2 × 45 games
    assert not games.filter(result="").exists()
    running = Tournament.objects.get(name="Herbstopen 2026")
    assert Game.objects.filter(round__tournament=running, result="").exists()


def test_demo_logins():
    call_command("seed_demo", verbosity=0)
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.get(username="official").groups.filter(name="officials").exists()
    member_user = User.objects.get(username="member")
    assert member_user.check_password("member")
    assert Member.objects.get(user=member_user).last_name
