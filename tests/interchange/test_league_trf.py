"""A league division's TRF-2026 file: the export of its team records (read back in
tests/leagues/views/test_public.py) and the import of a division's teams and schedule."""

import datetime

import pytest

from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.trf.teams import (
    TrfForfeitMatch,
    TrfLineup,
    TrfTeam,
    format_forfeit_line,
    format_lineup_line,
    format_team_line,
    team_records,
)
from clubrating.interchange.league_trf import division_export_trf, division_import_trf
from clubrating.leagues import services
from clubrating.leagues.selectors_public import division_data
from tests.leagues.conftest import DATES, league  # noqa: F401 - the league tests' fixture
from tests.leagues.played import play_landesliga

pytestmark = pytest.mark.usefixtures("english")


def test_team_records_are_written_in_their_columns_and_read_back():
    team = TrfTeam(3, "SK Donaustadt 1", 5.0, 7.5, 1, (1, 12, 7))
    lineup = TrfLineup(2, 3, 11, (1, 0, 7))
    forfeit = TrfForfeitMatch("-+", 4, 3, 11)
    lines = [format_team_line(team), format_lineup_line(lineup), format_forfeit_line(forfeit)]
    assert lines == [
        "310   3 SK Donaustadt 1                                  5.0    7.5   1     1   12    7",
        "300   2   3  11    1 0000    7",
        "330 -+ 004 003 011",
    ]
    assert lines[0][73:77] == "   1" and lines[0][54:60] == "   5.0" and lines[0][68:71] == "  1"
    records = team_records(["XXR 3", *lines])
    assert (records.teams, records.lineups, records.forfeits) == ([team], [lineup], [forfeit])


@pytest.fixture
def exported(league):
    play_landesliga(league)
    return division_export_trf(division=league.first)


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


def test_a_file_without_team_records_is_refused(league, exported):
    text = "\n".join(line for line in exported.splitlines() if not line.startswith("310"))
    with pytest.raises(ImportRefused, match="no team records"):
        division_import_trf(season=new_season(), name="Landesliga", text=text)
