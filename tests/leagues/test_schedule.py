"""Season, divisions, teams and the Berger schedule with dates, home and away."""

import datetime

import pytest

from clubrating.leagues import services
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import LeagueMatch
from clubrating.tournaments.models import TournamentKind
from tests.factories import ClubFactory
from tests.leagues.conftest import at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _season():
    return services.season_create(name="Wiener Klasse 2026/27", start_date=datetime.date(2026, 9, 1))


def test_a_division_is_backed_by_a_team_tournament():
    season = _season()
    division = services.division_create(season=season, name="A", boards=6, double_round_robin=True)
    tournament = division.tournament
    assert (tournament.name, tournament.kind, tournament.double_round_robin, tournament.start_date) == (
        "Wiener Klasse 2026/27 – A",
        TournamentKind.TEAM,
        True,
        datetime.date(2026, 9, 1),
    )
    assert (
        season.match_points_win,
        season.match_points_draw,
        season.match_points_loss,
        season.criteria,
        season.lineup_deadline_hours,
        season.fixing_games,
    ) == (2, 1, 0, ["MP", "BP", "BW", "DE"], 24, 3)


def test_a_double_round_robin_swaps_home_and_away_in_the_second_cycle():
    division = services.division_create(season=_season(), name="A", boards=6, double_round_robin=True)
    clubs = [ClubFactory(name=f"SK {n}", short_name=n) for n in ("Alpha", "Beta", "Gamma")]
    for club in clubs:
        services.team_register(division=division, club=club, number=1)
    dates = [datetime.date(2026, 10, 1) + datetime.timedelta(days=14 * i) for i in range(6)]
    matches = services.schedule_create(division=division, dates=dates, start_time=datetime.time(18, 30))
    rows = [
        (m.match.round.number, str(m.match.home_team), str(m.match.away_team), m.starts_at, m.match.boards)
        for m in LeagueMatch.objects.filter(pk__in=[m.pk for m in matches]).order_by("match__round__number")
    ]
    assert rows == [
        (1, "Beta 1", "Gamma 1", at(dates[0], 18, 30), 6),
        (2, "Gamma 1", "Alpha 1", at(dates[1], 18, 30), 6),
        (3, "Alpha 1", "Beta 1", at(dates[2], 18, 30), 6),
        (4, "Gamma 1", "Beta 1", at(dates[3], 18, 30), 6),
        (5, "Alpha 1", "Gamma 1", at(dates[4], 18, 30), 6),
        (6, "Beta 1", "Alpha 1", at(dates[5], 18, 30), 6),
    ]


def test_the_schedule_needs_a_date_per_round():
    division = services.division_create(season=_season(), name="A", boards=4)
    for name in ("Alpha", "Beta", "Gamma", "Delta"):
        services.team_register(
            division=division, club=ClubFactory(name=f"SK {name}", short_name=name), number=1
        )
    with pytest.raises(LeagueRefused) as caught:
        services.schedule_create(division=division, dates=[datetime.date(2026, 10, 1)] * 2)
    assert caught.value.message == "The schedule has 3 rounds: give a date for each."
    assert not LeagueMatch.objects.exists()


def test_a_club_has_one_team_of_each_number_in_a_season():
    season = _season()
    division = services.division_create(season=season, name="A")
    club = ClubFactory(name="SK Alpha", short_name="Alpha")
    services.team_register(division=division, club=club, number=1)
    with pytest.raises(LeagueRefused) as caught:
        services.team_register(
            division=services.division_create(season=season, name="B"), club=club, number=1
        )
    assert caught.value.message == "SK Alpha has a team 1 in this season already."


def test_the_season_rules_are_checked():
    with pytest.raises(LeagueRefused) as caught:
        services.season_create(name="X", start_date=datetime.date(2026, 9, 1), match_points=(1, 1, 0))
    assert caught.value.message == (
        "A win must give more match points than a draw, a draw at least as many as a loss."
    )
    with pytest.raises(LeagueRefused):
        services.season_create(
            name="X", start_date=datetime.date(2026, 9, 1), standings_criteria=["MP", "XX"]
        )
