"""A league division's TRF-2026 file: the export of its team records (read back in
tests/leagues/views/test_public.py) and the import of a division's teams and schedule."""

import copy
import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import translation

from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.league_trf import division_export_trf, division_import_trf
from clubrating.leagues import services
from clubrating.leagues.selectors_public import division_data
from tests.leagues.conftest import DATES, build_league
from tests.leagues.played import play_landesliga

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture(scope="module")
def played_once(django_db_setup, django_db_blocker):
    """The league built, its Landesliga played and exported once for the module: inside a
    transaction rolled back when the module is done; each test runs in a savepoint within it."""
    with django_db_blocker.unblock(), transaction.atomic(), translation.override("en"):
        league = build_league()
        play_landesliga(league)
        yield league, division_export_trf(division=league.first)
        transaction.set_rollback(True)


@pytest.fixture
def league(played_once, db):
    """The played league, its objects copied for one test (what a test sets on one does not
    reach the next)."""
    return copy.deepcopy(played_once[0])


@pytest.fixture
def exported(played_once):
    return played_once[1]


def new_season():
    return services.season_create(name="Landesliga Wien 2027/28", start_date=datetime.date(2026, 9, 1))


def test_a_division_is_imported_with_its_teams_and_schedule(league, exported):
    division = division_import_trf(season=new_season(), name="Landesliga", text=exported)
    data = division_data(division=division)
    assert division.boards == 4
    assert [(t.name, t.club.short_name, t.number) for t in data.teams] == [
        ("Donaustadt 1", "Donaustadt", 1),
        ("Favoriten 1", "Favoriten", 1),
        ("Hietzing 1", "Hietzing", 1),
        ("Ottakring 1", "Ottakring", 1),
    ]
    old = division_data(division=league.first)

    def pairs(d):
        return [
            (n, date, sorted((m.home.name, m.away.name) for m in matches)) for n, date, matches in d.rounds
        ]

    assert pairs(data) == pairs(old)
    assert [date for _n, date, _m in data.rounds] == DATES


def test_a_team_without_its_club_is_refused_and_nothing_is_saved(league, exported):
    season = new_season()
    text = exported.replace("Hietzing 1     ", "Heiligenstadt 1", 1)  # the same columns
    with pytest.raises(
        ImportRefused, match="Team Heiligenstadt 1: no club or more than one is called Heiligenstadt"
    ):
        division_import_trf(season=season, name="Landesliga", text=text)
    assert not season.divisions.exists()


def test_pairings_other_than_the_berger_tables_are_refused(league, exported):
    lines = exported.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("300   1   1   4"))
    lines[first] = lines[first].replace("300   1   1   4", "300   1   1   2")
    season = new_season()
    with pytest.raises(ImportRefused, match="Round 1: teams 1 and 2 do not meet there by the Berger tables"):
        division_import_trf(season=season, name="Landesliga", text="\n".join(lines))
    assert not season.divisions.exists()


def test_a_round_line_naming_one_team_twice_is_refused(league, exported):
    lines = exported.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("300   1   1   4"))
    lines[first] = lines[first].replace("300   1   1   4", "300   1   1   1")
    season = new_season()
    with pytest.raises(ImportRefused) as refused:
        division_import_trf(season=season, name="Landesliga", text="\n".join(lines))
    assert str(refused.value) == "Round 1: team 1 is named as its own opponent."
    assert not season.divisions.exists()


def test_rounds_before_the_season_are_refused(league, exported):
    season = services.season_create(name="Landesliga Wien 2027/28", start_date=datetime.date(2027, 9, 1))
    with pytest.raises(ImportRefused) as refused:
        division_import_trf(season=season, name="Landesliga", text=exported)
    assert str(refused.value) == "The first round cannot be before the season starts (2027-09-01)."
    assert not season.divisions.exists()


def test_a_file_without_team_records_is_refused(league, exported):
    text = "\n".join(line for line in exported.splitlines() if not line.startswith("310"))
    with pytest.raises(ImportRefused, match="no team records"):
        division_import_trf(season=new_season(), name="Landesliga", text=text)


def test_the_command_imports_a_division(league, exported, tmp_path):
    new_season()
    path = tmp_path / "landesliga.trf"
    path.write_text(exported, encoding="utf-8")
    out = io.StringIO()
    call_command("import_division_trf", "Landesliga Wien 2027/28", "Landesliga", str(path), stdout=out)
    assert out.getvalue() == "Division Landesliga: 4 teams, 3 rounds.\n"
    with pytest.raises(CommandError, match="There is no league season called Bundesliga"):
        call_command("import_division_trf", "Bundesliga", "Landesliga", str(path))


def test_a_double_round_robin_is_imported_as_one(league, monkeypatch):
    from tests.leagues.conftest import at

    season = services.season_create(
        name="Stadtliga 2026/27", start_date=datetime.date(2026, 9, 1), directors=[league.director]
    )
    division = services.division_create(season=season, name="Stadtliga", boards=2, double_round_robin=True)
    clubs = [league.teams[f"{name} 1"].club for name in ("Favoriten", "Hietzing", "Ottakring", "Meidling")]
    teams = [services.team_register(division=division, club=club, number=1) for club in clubs]
    for club, team in zip(clubs, teams, strict=True):
        players = [m for m in league.players[club.short_name][:2]]
        services.roster_set(
            season=season, club=club, entries=[(m, team) for m in players], on=season.start_date
        )
    dates = [datetime.date(2026, 9, 6) + datetime.timedelta(weeks=week) for week in range(6)]
    services.schedule_create(division=division, dates=dates)
    match = division_data(division=division).rounds[0][2][0]
    for team in (match.home, match.away):
        services.lineup_submit(
            match=match.league,
            team=team,
            members=[e.member for e in team.roster_entries.order_by("rank")],
            user=league.director,
            now=at(dates[0], 9),
        )
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(dates[-1], 20))
    text = division_export_trf(division=division)
    other = services.season_create(name="Stadtliga 2027/28", start_date=datetime.date(2026, 9, 1))
    imported = division_import_trf(season=other, name="Stadtliga", text=text)
    assert (imported.double_round_robin, imported.boards, imported.tournament.rounds.count()) == (True, 2, 6)

    def pairs(d):
        return [(n, sorted((m.home.name, m.away.name) for m in matches)) for n, _d, matches in d.rounds]

    assert pairs(division_data(division=imported)) == pairs(division_data(division=division))
