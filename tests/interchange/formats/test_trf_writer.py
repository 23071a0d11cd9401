from datetime import date

import pytest

from clubrating.interchange.formats.trf import (
    TrfGame,
    TrfPlayer,
    TrfTournament,
    format_player_line,
    parse_trf,
    read_trf,
    write_trf,
)
from tests.paths import TRF_DIR

DATA = TRF_DIR
FILES = sorted(DATA.glob("*.trf"))


def _player(**overrides) -> TrfPlayer:
    values = dict(
        start_rank=7,
        sex="w",
        title="WGM",
        name="Musterfrau, Erika",
        rating=2301,
        federation="AUT",
        fide_id=1601234,
        birth_year=1990,
        birth_date=date(1990, 5, 17),
        points=2.5,
        rank=3,
        results=[TrfGame(1, 12, "w", "1"), TrfGame(2, None, "-", "H"), TrfGame(3, 4, "b", "=")],
    )
    values.update(overrides)
    return TrfPlayer(**values)


def test_player_line_columns_follow_trf16():
    line = format_player_line(_player())
    assert line == (
        "001    7 wWGM Musterfrau, Erika                 2301 AUT     1601234 1990/05/17  2.5    3"
        "    12 w 1  0000 - H     4 b ="
    )
    assert line[4:8] == "   7" and line[9] == "w" and line[10:13] == "WGM"
    assert line[14:47].rstrip() == "Musterfrau, Erika"
    assert line[48:52] == "2301" and line[53:56] == "AUT" and line[57:68] == "    1601234"
    assert line[69:79] == "1990/05/17" and line[80:84] == " 2.5" and line[85:89] == "   3"
    assert line[91:95] == "  12" and line[96] == "w" and line[98] == "1"
    assert line[101:105] == "0000" and line[106] == "-" and line[108] == "H"


def test_unknown_values_are_blank_and_a_missing_round_stays_blank():
    line = format_player_line(
        _player(
            sex="",
            title="",
            rating=None,
            federation="",
            fide_id=None,
            birth_date=None,
            birth_year=None,
            rank=None,
            results=[TrfGame(2, 3, "b", "0"), TrfGame(3, None, "-", "U")],
        )
    )
    assert (
        line == "001    7" + " " * 6 + "Musterfrau, Erika".ljust(66) + " 2.5" + " " * 20 + "3 b 0  0000 - U"
    )
    assert line[80:84] == " 2.5" and line[85:89] == "    " and line[91:101] == " " * 10


def test_birth_year_only_and_forfeit_codes():
    line = format_player_line(
        _player(
            birth_date=None,
            birth_year=1961,
            results=[
                TrfGame(1, 5, "b", "+"),
                TrfGame(2, 9, "w", "-"),
                TrfGame(3, None, "-", "F"),
                TrfGame(4, None, "-", "Z"),
                TrfGame(5, 2, "w", "W"),
            ],
        )
    )
    assert line[69:79] == "1961      "
    assert line[91:] == "   5 b +     9 w -  0000 - F  0000 - Z     2 w W"


def test_header_and_round_dates():
    text = write_trf(
        TrfTournament(
            name="Vereinsmeisterschaft",
            city="Wien",
            federation="AUT",
            start_date=date(2025, 3, 1),
            end_date=date(2025, 3, 2),
            players_count=1,
            rated_players_count=1,
            teams_count=0,
            kind="Individual: Swiss-System",
            chief_arbiter="Max Schiri",
            time_control="90'+30\"",
            round_dates=[date(2025, 3, 1), None, date(2025, 3, 2)],
            rounds=3,
            players=[_player()],
            extra_lines=["XXR 5"],
        ),
        newline="\r\n",
    )
    lines = text.split("\r\n")
    assert lines[:12] == [
        "012 Vereinsmeisterschaft",
        "022 Wien",
        "032 AUT",
        "042 2025/03/01",
        "052 2025/03/02",
        "062 1",
        "072 1",
        "082 0",
        "092 Individual: Swiss-System",
        "102 Max Schiri",
        "112",
        "122 90'+30\"",
    ]
    assert lines[12] == "132" + " " * 88 + "25/03/01            25/03/02"
    assert lines[13].startswith("001    7 wWGM")
    assert lines[14:] == ["XXR 5", ""]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_read_write_read_keeps_every_player_field(path):
    original = read_trf(path)
    again = parse_trf(write_trf(original))

    def fields(trf):
        return [
            (
                p.start_rank,
                p.sex,
                p.title,
                p.name,
                p.rating,
                p.federation,
                p.fide_id,
                p.birth_year,
                p.birth_date,
                p.points,
                p.rank,
                p.results,
            )
            for p in trf.players
        ]

    assert fields(again) == fields(original)
    assert (again.name, again.start_date, again.end_date, again.round_dates) == (
        original.name,
        original.start_date,
        original.end_date,
        original.round_dates,
    )
    assert again.extra_lines == original.extra_lines


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_player_lines_are_byte_identical_apart_from_normalised_fields(path):
    """Only the birth-date separator (file: 1969.12.06, TRF16: 1969/12/06) and a rating of 0
    and a FIDE ID of 0 (both written blank: unknown) differ from the file's own player lines."""
    original = read_trf(path)
    for player in original.players:
        expected = player.raw_line.rstrip()
        if player.birth_date:
            expected = expected[:69] + player.birth_date.strftime("%Y/%m/%d") + expected[79:]
        if expected[48:52] == "   0":
            expected = expected[:48] + "    " + expected[52:]
        if expected[57:68] == "          0":
            expected = expected[:57] + " " * 11 + expected[68:]
        assert format_player_line(player) == expected.rstrip()


def test_withdrawn_rank_zero_and_unknown_federation():
    """An organiser's rank 0 (withdrawn, unranked) is written as 0, not blank; a blank federation
    stays blank (unknown), both as the import keeps them."""
    line = format_player_line(_player(rank=0, federation="", results=[TrfGame(1, None, "-", "H")]))
    assert line[53:56] == "   " and line[85:89] == "   0"
    assert parse_trf("012 X\n" + line + "\n").players[0].rank == 0


def test_a_line_break_in_a_name_or_header_never_starts_a_record_of_its_own():
    from clubrating.interchange.formats.trf import parse_trf

    text = write_trf(
        TrfTournament(
            name="Liga\n001    2      Injected, Line",
            city="Wien\r",
            players=[_player(name="Huber,\u2028Franz\x0b", results=[])],
        )
    )
    assert text.splitlines()[:2] == ["012 Liga 001    2      Injected, Line", "022 Wien"]
    trf = parse_trf(text)
    assert [(p.start_rank, p.name) for p in trf.players] == [(7, "Huber, Franz")]
