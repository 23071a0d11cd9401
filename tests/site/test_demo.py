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
    assert first[0] == 8  # the demo club, its guest club and the league's six other clubs
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


def test_demo_league_four_rounds_played_round_five_lined_up(demo_club):
    from collections import Counter

    from clubrating.leagues.eligibility import appearances, fixed_team
    from clubrating.leagues.models import LeagueMatch, LeagueSeason, MatchStatus, Roster
    from ratings.models import RatingRecord

    season = LeagueSeason.objects.get(name="Landesliga Wien 2026/27")
    assert [(d.name, d.boards, d.teams.count()) for d in season.divisions.all()] == [
        ("Landesliga", 6, 6), ("1. Klasse A", 4, 6)]
    played = LeagueMatch.objects.filter(match__round__number__lte=4)
    statuses = Counter(played.values_list("status", flat=True))
    assert statuses == {MatchStatus.CONFIRMED: 23, MatchStatus.DECIDED: 1}
    fifth = LeagueMatch.objects.filter(match__round__number=5)
    assert [m.status for m in fifth] == [MatchStatus.OPEN] * 6
    assert all(m.home_lineup_at and m.away_lineup_at for m in fifth)
    # No step of the season's history is dated after the moment the demo was made.
    from django.utils import timezone

    from clubrating.leagues.models import MatchEvent
    assert not MatchEvent.objects.filter(at__gt=timezone.now()).exists()
    assert not fifth.filter(home_lineup_at__gt=timezone.now()).exists()
    league_games = Game.objects.filter(team_match__league__isnull=False)
    assert not league_games.filter(round__number__lte=4, result="").exists()
    forfeits = league_games.filter(result__in=["+-", "-+"])
    assert forfeits.count() == 1 and not RatingRecord.objects.filter(game__in=forfeits).exists()
    assert RatingRecord.objects.filter(game__in=league_games).count() == 2 * (
        league_games.filter(round__number__lte=4).count() - 1)
    decided = LeagueMatch.objects.get(status=MatchStatus.DECIDED)
    assert (str(decided), decided.dispute_reason) == ("ASK Favoriten 1 – SK Donaustadt 1",
                                                      "Brett 1 endete remis, nicht 1-0.")
    # Simmering left board 4 empty in round 2: no game there.
    simmering = LeagueMatch.objects.get(match__round__number=2, match__home_team__name="SC Simmering 1")
    assert sorted(e.board for e in simmering.match.lineup.filter(team=simmering.match.home_team)) == [1, 2, 3]
    roster = Roster.objects.get(season=season, club__short_name="SK Donaustadt")
    fixed = roster.entries.get(rank=9)
    counts = appearances(season=season, club_id=roster.club_id, before_round=5, member_ids={fixed.member_id})
    assert (fixed.team.number, counts[fixed.member_id][1]) == (2, 4)
    assert fixed_team(counts[fixed.member_id], own=2, fixing_games=season.fixing_games) == 1
    import datetime

    from clubrating.leagues.models import RosterChange

    late = RosterChange.objects.get()
    assert (late.roster.club.short_name, late.kind, late.new_rank, late.valid_from) == (
        "SV Wienerwald", "added", 12, datetime.date(2026, 11, 1))
