"""TRF-2026 team records: written in their columns and read back."""

from clubrating.interchange.formats.trf.teams import (
    TrfForfeitMatch,
    TrfLineup,
    TrfTeam,
    format_forfeit_line,
    format_lineup_line,
    format_team_line,
    team_records,
)


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


def test_an_unreadable_forfeit_kind_names_the_field():
    import pytest

    from clubrating.interchange.formats.limits import FieldError

    with pytest.raises(FieldError, match="forfeit kind “x-” is not one of"):
        team_records(["330 x- 004 003 011"])


def test_a_line_break_in_a_team_name_never_starts_a_record_of_its_own():
    name = "Evil\n001  999      Fake, Player\r\n310 9"
    line = format_team_line(TrfTeam(1, name, 2.0, 3.0, 1, (1,)))
    assert "\n" not in line and "\r" not in line
    assert line == "310   1 Evil 001  999      Fake, Player                  2.0    3.0   1     1"
    (team,) = team_records([line]).teams
    assert (team.number, team.name, team.players) == (1, "Evil 001  999      Fake, Player", (1,))
