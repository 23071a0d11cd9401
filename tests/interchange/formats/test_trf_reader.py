from datetime import date
from pathlib import Path

import pytest

from clubrating.interchange.formats.trf import TrfError, TrfGame, parse_date, parse_trf, read_trf
from tests.paths import TRF_DIR

DATA = TRF_DIR
HEADER = "012 Test\n042 2005/07/28\n"
LINE1 = (
    "001    1 m  g Alpha, Anna                       2527 AUT    13400304 1978        1.5    1"
    "     2 w 1     2 b =  0000 - H"
)
LINE2 = (
    "001    2 w    Beta, Berta                          0 AUT           0 1969/12/06  0.5    2"
    "     1 b 0     1 w ="
)


def _count_player_lines(path: Path) -> int:
    text = path.read_bytes().decode("latin-1").replace("\r", "\n")
    return sum(1 for line in text.split("\n") if line.startswith("001"))


@pytest.mark.parametrize("name", ["gros-2010-r4.trf", "karl-mala-2005.trf", "san-viator-2018.trf"])
def test_one_player_per_001_line(name):
    path = DATA / name
    tournament = read_trf(path)
    assert len(tournament.players) == _count_player_lines(path)
    assert [p.start_rank for p in tournament.players] == list(range(1, len(tournament.players) + 1))


def test_gros_fields():
    t = read_trf(DATA / "gros-2010-r4.trf")
    assert t.name == "XX Open Internacional de Gros"
    assert t.city == "Donostia"
    assert (t.start_date, t.end_date) == (date(2010, 9, 24), date(2010, 10, 2))
    assert (t.players_count, t.rated_players_count, t.teams_count) == (52, 41, 0)
    assert "XXR 9" in t.extra_lines and t.rounds == 5
    p1 = t.players[0]
    assert (p1.start_rank, p1.sex, p1.title, p1.name, p1.rating) == (1, "m", "g", "Mirzoev Azer", 2527)
    assert (p1.federation, p1.fide_id, p1.birth_year, p1.points, p1.rank) == ("AZE", 13400304, 1978, 4.0, 1)
    assert p1.results[0] == TrfGame(1, 26, "w", "1")
    assert p1.line_no == 14 and p1.raw_line.startswith("001    1 m  g Mirzoev")
    p6 = t.player(6)
    assert p6.name == "Gorrochategui Torres, Eugenio" and p6.rating is None and p6.fide_id is None
    p14 = t.player(14)
    assert p14.results[2] == TrfGame(3, None, "-", "H") and p14.results[2].is_bye
    assert p14.results[2].points == 0.5
    p13 = t.player(13)
    assert p13.results[0] == TrfGame(1, 39, "w", "+")
    assert p13.results[0].is_forfeit and not p13.results[0].is_played


def test_karl_mala_dates_birth_and_dummy():
    t = read_trf(DATA / "karl-mala-2005.trf")
    assert t.start_date == date(2005, 7, 28) and t.round_dates == []
    assert t.deputy_arbiters == "NSR Thomas Rondio, NSR Wolfgang Hettler"
    p1 = t.players[0]
    assert p1.birth_date == date(1969, 12, 6) and p1.birth_year == 1969 and p1.sex == ""
    assert p1.points == 6.0 and p1.rank == 4 and len(p1.results) == 7
    dummy = t.players[-1]
    assert dummy.start_rank == 284 and dummy.name == "spielfrei" and dummy.is_dummy
    p13 = t.player(13)
    assert p13.results == [TrfGame(1, 153, "-", "-")]


def test_san_viator_round_dates_and_rounds():
    t = read_trf(DATA / "san-viator-2018.trf")
    assert t.round_dates[0] == date(2018, 4, 8) and t.round_dates[-1] == date(2018, 5, 27)
    assert len(t.round_dates) == 7 and t.rounds == 7
    p1 = t.players[0]
    assert [g.result for g in p1.results] == ["Z", "F", "1", "Z", "Z", "Z", "Z"]
    assert p1.results[2] == TrfGame(3, 76, "w", "1") and p1.results[2].is_played


def test_line_endings_and_encoding(tmp_path):
    text = HEADER + LINE1.replace("Alpha, Anna", "Ärger, Anna") + "\n" + LINE2 + "\n"
    for newline in ("\r", "\r\n"):
        for encoding in ("latin-1", "utf-8"):
            path = tmp_path / "x.trf"
            path.write_bytes(text.replace("\n", newline).encode(encoding))
            t = read_trf(path)
            assert t.players[0].name == "Ärger, Anna"
            assert t.players[1].line_no == 4


def test_parsed_fields_of_a_small_file():
    t = parse_trf(HEADER + LINE1 + "   \n" + LINE2)
    assert t.start_date == date(2005, 7, 28)
    a, b = t.players
    assert a.results == [TrfGame(1, 2, "w", "1"), TrfGame(2, 2, "b", "="), TrfGame(3, None, "-", "H")]
    assert b.rating is None and b.birth_date == date(1969, 12, 6) and b.points == 0.5


def test_paired_game_without_result_in_the_last_round():
    # A pairing without a result yet ends the line right after the colour once trailing blanks go.
    t = parse_trf(HEADER + LINE1 + "     2 w" + "\n" + LINE2 + "  0000 - U" + "     1 b  ")
    a, b = t.players
    assert a.results[-1] == TrfGame(4, 2, "w", "")
    assert b.results[-1] == TrfGame(4, 1, "b", "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2005/07/28", date(2005, 7, 28)),
        ("28/07/2005", date(2005, 7, 28)),
        ("28. 07. 2005", date(2005, 7, 28)),
        ("18/04/08", date(2018, 4, 8)),
        ("1969.12.06", date(1969, 12, 6)),
        ("", None),
    ],
)
def test_parse_date(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        (LINE2.replace("   0 AUT", "  xx AUT"), "rating"),
        (LINE2.replace("     1 b 0", "     1 b ?"), "round results"),
        (LINE2.replace("     1 b 0", "     9 b 0"), "opponent 9"),
        (LINE2.replace(" 0.5", " x.5"), "points"),
    ],
)
def test_malformed_lines_name_the_line(bad, fragment):
    with pytest.raises(TrfError) as info:
        parse_trf(HEADER + LINE1 + "\n" + bad)
    assert info.value.line_no == 4
    assert str(info.value).startswith("line 4:") and fragment in str(info.value)


@pytest.mark.parametrize(("bad", "code", "field", "message"), [
    (LINE2.replace("   0 AUT", "  xx AUT"), "rating", "rating",
     "rating “xx” is not a rating: 0 (unrated) or 100 to 3000."),
    (LINE2.replace("     1 b 0", "     1 b ?"), "round_results", "",
     "the round results “1 b ?     1 w =” cannot be read: each round is an opponent, a colour and a "
     "result."),
    (LINE2.replace("     1 b 0", "     9 b 0"), "no_opponent", "", "round 1: opponent 9 has no player line."),
    (LINE2.replace(" 0.5", " x.5"), "not_decimal", "points", "points “x.5” is not a number."),
    (LINE2.replace("0.5    2", "0.5    x"), "not_number", "rank", "rank “x” is not a whole number."),
    (LINE2.replace("1969/12/06", "1969/13/06"), "date", "birth date",
     "birth date “1969/13/06” is not a date."),
    (LINE2.replace("001    2", "001    1"), "twice", "", "start rank 1 appears twice (also on line 3)."),
])
def test_every_line_error_carries_a_code_and_its_parameters(bad, code, field, message):
    with pytest.raises(TrfError) as info:
        parse_trf(HEADER + LINE1 + "\n" + bad)
    assert (info.value.line_no, info.value.problem.code, info.value.problem.field, info.value.message) == (
        4, code, field, message)


# A 12-digit FIDE ID (columns 58-69) and 999.5 points (81-85) reach into the blank column after
# their field (the rest of the line shifted by one, or not); read at the TRF16 columns they would
# become 13400304123 and 999.
SHIFTED = {
    "FIDE ID": (LINE1.replace("AUT    13400304 1978", "AUT 134003041234 1978"), 69, "134003041234",
                "birth date", "70–79", "58–68"),
    "points": (LINE1.replace("1978        1.5    1", "1978       999.5   1"), 85, "999.5", "rank",
               "86–89", "81–84"),
    "name": (LINE1.replace("Alpha, Anna" + " " * 23 + "2527", "Alpha, Anna Maria Theresia Beatrix2527"),
             48, "Beatrix2527", "rating", "49–52", "15–47"),
}


@pytest.mark.parametrize(("line", "column", "value", "right", "right_columns", "left_columns"),
                         SHIFTED.values(), ids=SHIFTED.keys())
def test_a_value_running_over_its_columns_is_refused_not_cut(line, column, value, right, right_columns,
                                                             left_columns):
    left = next(name for name, (other, *_rest) in SHIFTED.items() if other == line)
    with pytest.raises(TrfError) as info:
        parse_trf(HEADER + line + "\n" + LINE2)
    problem = info.value.problem
    assert (info.value.line_no, problem.code, problem.field, problem.params) == (3, "spill", left, {
        "column": column, "value": value, "left": left, "left_columns": left_columns, "right": right,
        "right_columns": right_columns})
    assert str(info.value) == (
        f"line 3: column {column} between {left} (columns {left_columns}) and {right} (columns "
        f"{right_columns}) must be blank, but “{value}” runs over it: the fields are shifted.")


def test_a_federation_longer_than_its_three_letters_is_refused_not_cut():
    with pytest.raises(TrfError) as info:
        parse_trf("012 T\n032 AUSTRIA\n" + LINE1)
    assert (info.value.line_no, info.value.problem.field, info.value.message) == (
        2, "federation", "federation is longer than 3 characters.")


def test_header_numbers_and_dates_carry_their_tag():
    with pytest.raises(TrfError) as count:
        parse_trf("012 T\n062 1_000\n" + LINE1)
    assert (count.value.line_no, count.value.message) == (2, "062 “1_000” is not a whole number.")
    with pytest.raises(TrfError) as day:
        parse_trf("012 T\n042 sometime\n" + LINE1)
    assert (day.value.line_no, day.value.message) == (2, "042 “sometime” is not a date.")


def test_no_players_is_an_error():
    with pytest.raises(TrfError, match="no player lines"):
        parse_trf(HEADER)


def test_bad_header_date():
    with pytest.raises(TrfError, match="line 2"):
        parse_trf("012 T\n042 sometime\n" + LINE1)
