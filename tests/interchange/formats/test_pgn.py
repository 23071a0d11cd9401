from collections import Counter
from datetime import date

import pytest

from clubrating.interchange.formats.pgn import (
    LABEL,
    MESSAGES,
    PgnError,
    PgnPlayer,
    playing_minutes,
    read_pgn,
)
from clubrating.interchange.formats.text import read_text
from tests.paths import DATA_DIR, PGN_DIR

GAME = """[Event "{event}"]
[Date "2025.03.07"]
[Round "{round}"]
[White "{white}"]
[Black "{black}"]
[Result "{result}"]
{extra}
{moves}
"""
DEFAULTS = {"event": "Vereinsabend", "round": "1.1", "white": "Huber, Anna", "black": "Gruber, Bernd",
            "result": "1-0", "extra": "", "moves": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"}


def pgn(*games: dict) -> str:
    return "\n".join(GAME.format(**{**DEFAULTS, **g}) for g in games)


def test_uzchess_cup_broadcast_of_header_only_games():
    games = read_pgn(read_text(PGN_DIR / "uzchess-cup-2025.pgn"))
    assert len(games) == 45
    assert Counter(g.result for g in games) == {"1/2-1/2": 24, "1-0": 12, "0-1": 9}
    # Only the first game has an Event tag: every game carries it on.
    assert {g.event for g in games} == {"Round 1: Aravindh, Chithambaram VR. - Praggnanandhaa R"}
    first, last = games[0], games[-1]
    assert (first.number, first.line_no, first.round, first.board, first.date, first.event_date,
            first.result, first.moves) == (1, 1, 1, 1, date(2025, 6, 18), None, "1/2-1/2", "")
    assert first.players == (
        PgnPlayer("Aravindh, Chithambaram VR.", fide_id=5072786, rating=2749, title="GM"),
        PgnPlayer("Praggnanandhaa R", fide_id=25059530, rating=2767, title="GM"),
    )
    assert (last.number, last.line_no, last.round, last.board, last.date) == (
        45, 794, 9, 5, date(2025, 6, 27))
    assert len({p.key for g in games for p in g.players}) == 10
    assert first.label() == "Game 1 (line 1, Aravindh, Chithambaram VR. – Praggnanandhaa R)"


def test_womens_world_rapid_swiss():
    games = read_pgn(read_text(PGN_DIR / "womens-world-rapid-2024.pgn"))
    assert len(games) == 605
    assert Counter(g.result for g in games) == {"1-0": 244, "0-1": 197, "1/2-1/2": 164}
    assert len({p.key for g in games for p in g.players}) == 110
    assert Counter(g.round for g in games)[11] == 55
    last = games[-1]
    assert (last.line_no, last.round, last.board, last.date) == (12048, 11, 28, date(2024, 12, 28))
    assert last.players[1] == PgnPlayer("Derlich, Sarah Sima", fide_id=1469290, rating=1807, title="WCM")
    # The file spells its time control in two ways; both are 15 minutes + 10 seconds a move.
    assert {g.headers["TimeControl"]: playing_minutes(g.headers["TimeControl"]) for g in games} == {
        "15 min. + 10 s. per move": 25,
        "15 minutes + 10 seconds increment per move, starting from move 1": 25,
    }


def test_club_games_moves_as_san_and_unknown_ratings():
    games = read_pgn(read_text(DATA_DIR / "club-games.pgn"))
    assert [(g.round, g.board, g.date, g.result) for g in games] == [
        (1, 1, date(2025, 3, 4), "1-0"),
        (1, 2, date(2025, 3, 4), "1/2-1/2"),
        (2, 1, date(2025, 3, 11), "0-1"),
    ]
    assert games[0].moves == (
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Qe2 b5 7. Bb3 O-O 8. c3\n"
        "d5 9. d3 Bb7 10. Rd1 Re8 1-0"
    )
    assert games[2].moves == "1. f3 e5 2. g4 Qh4# 0-1"
    assert [p.rating for g in games for p in g.players] == [1850, 1620, 1500, None, None, None]
    assert games[1].players[1] == PgnPlayer("Novak, Eva")
    assert games[1].players[1].key == "name:novak, eva"


def test_comments_escapes_and_byte_order_mark_are_passed_over():
    text = "\ufeff% exported by a program\n; a comment line\n" + pgn(
        {"moves": "1. e4 {best by test} e5 (1... c5) 1-0"})
    (game,) = read_pgn(text)
    assert (game.line_no, game.moves) == (3, "1. e4 e5 1-0")


@pytest.mark.parametrize("unknown", ["????.??.??", "2025.??.??", "2025.03.??", "?", ""])
def test_a_date_not_known_in_the_standards_form_stays_unknown(unknown):
    (game,) = read_pgn(pgn({}).replace("2025.03.07", unknown))
    assert game.date is None


def test_event_tag_carried_on_and_dates_read():
    text = pgn(
        {"extra": '[EventDate "2025.03.01"]\n'},
        {"event": "?", "round": "2", "white": "Gruber, Bernd", "black": "Huber, Anna",
         "extra": '[UTCDate "2025.03.14"]\n'},
    ).replace('[Date "2025.03.07"]', '[Date "2025.??.??"]', 2)
    first, second = read_pgn(text)
    assert (first.event, first.date, first.event_date) == ("Vereinsabend", None, date(2025, 3, 1))
    assert (second.event, second.date, second.round, second.board) == (
        "Vereinsabend", date(2025, 3, 14), 2, None)


def test_players_keyed_by_fide_id_else_name():
    text = pgn({"white": " Huber ,  Anna ", "extra": '[WhiteFideId "1601001"]\n[BlackFideId "0"]\n'
                '[WhiteElo "-"]\n[BlackElo "1650"]\n[BlackTitle "wf"]\n'})
    (game,) = read_pgn(text)
    assert game.players == (PgnPlayer("Huber, Anna", fide_id=1601001),
                            PgnPlayer("Gruber, Bernd", rating=1650, title="wf"))
    assert [p.key for p in game.players] == ["fide:1601001", "name:gruber, bernd"]


LABEL_1 = "Game 1 (line 1, Huber, Anna – Gruber, Bernd)"
BAD = {
    "moves first": ("1. e4 e5 1-0\n" + pgn({}), "moves_first", 1,
                    "Line 1: moves before the first game's headers."),
    "header cut off": (pgn({}) + '\n[Event "Vereinsabend"]\n[White "Mai', "header", 11,
                       'Line 11: the header [White "Mai is cut off or malformed.'),
    "no black": (pgn({"black": "?"}), "missing", 1,
                 "Game 1 (line 1, Huber, Anna – ?): the Black header is missing."),
    "game going on": (pgn({"result": "*", "moves": "1. e4 *"}), "result", 1,
                      f"{LABEL_1}: the result * is not a finished game's result."),
    "cut off": (pgn({"moves": "1. e4 e5 2. Qh5"}), "cut_off", 1,
                f"{LABEL_1}: the moves do not end with a result; the file seems to be cut off."),
    "other ending": (pgn({"moves": "1. e4 e5 0-1"}), "ending", 1,
                     f"{LABEL_1}: the moves end with 0-1 but the Result header says 1-0."),
    "illegal move": (pgn({"moves": "1. e4 e5 2. Ke3 1-0"}), "illegal", 1,
                     f"{LABEL_1}: the move 2. Ke3 is not allowed in this position."),
    "illegal black move": (pgn({"moves": "1. e4 e5 2. Nf3 Ke6 1-0"}), "illegal", 1,
                           f"{LABEL_1}: the move 2... Ke6 is not allowed in this position."),
    "no move": (pgn({"moves": "1. e4 e5 2. Q@h5 1-0"}), "not_move", 1, f"{LABEL_1}: Q@h5 is not a move."),
    "malformed date": (pgn({}).replace("2025.03.07", "99999.01.01"), "value", 1,
                       f"{LABEL_1}: Date “99999.01.01” is not a date like 2025.03.07 (with ?? for a part "
                       "not known)."),
    "date with slashes": (pgn({"extra": '[EventDate "2025/03/07"]\n'}), "value", 1,
                          f"{LABEL_1}: EventDate “2025/03/07” is not a date like 2025.03.07 (with ?? for a "
                          "part not known)."),
    "round": (pgn({"round": "3a"}), "round", 1, f"{LABEL_1}: the round 3a is not a number like 3 or 3.1."),
    "round 0": (pgn({"round": "0.1"}), "value", 1, f"{LABEL_1}: Round 0 is not between 1 and 999."),
    "rating": (pgn({"extra": '[WhiteElo "1e308"]\n'}), "value", 1,
               f"{LABEL_1}: WhiteElo “1e308” is not a whole number."),
    "no such day": (pgn({}).replace("2025.03.07", "2025.02.30"), "value", 1,
                    f"{LABEL_1}: Date “2025.02.30” is not a date."),
    "long name": (pgn({"white": "Huber, " + "A" * 81}), "value", 1,
                  "Game 1 (line 1, Huber, " + "A" * 81
                  + " – Gruber, Bernd): White is longer than 80 characters."),
    "control character": (pgn({}).replace("Anna", "An\x00na"), "value", 4,
                          "line 4: column 18 holds a control character (U+0000)."),
    "against oneself": (pgn({}, {"round": "2", "black": "huber,  anna"}), "self", 10,
                        "Game 2 (line 10, Huber, Anna – huber,  anna): a player cannot play against "
                        "herself or himself."),
    "no games": ("% nothing here\n\n", "empty", 0, "The file holds no games."),
}


@pytest.mark.parametrize(("text", "code", "line", "message"), BAD.values(), ids=BAD.keys())
def test_refused_with_code_line_and_message(text, code, line, message):
    with pytest.raises(PgnError) as caught:
        read_pgn(text)
    error = caught.value
    assert (error.code, error.line) == (code, line)
    assert str(error) == message


def test_messages_go_through_the_given_gettext():
    german = {
        LABEL: "Partie %(number)d (Zeile %(line)d, %(white)s – %(black)s)",
        MESSAGES["missing"]: "%(game)s: die Kopfzeile %(header)s fehlt.",
        MESSAGES["value"]: "%(game)s: %(problem)s",
        "%(field)s %(value)s is not between %(low)s and %(high)s.":
            "%(field)s %(value)s liegt nicht zwischen %(low)s und %(high)s.",
    }
    with pytest.raises(PgnError) as missing:
        read_pgn(pgn({"white": "?"}))
    with pytest.raises(PgnError) as value:
        read_pgn(pgn({"round": "1000"}))
    gettext = lambda text: german.get(text, text)  # noqa: E731
    assert missing.value.render(gettext) == (
        "Partie 1 (Zeile 1, ? – Gruber, Bernd): die Kopfzeile White fehlt.")
    assert value.value.render(gettext) == (
        "Partie 1 (Zeile 1, Huber, Anna – Gruber, Bernd): Round 1000 liegt nicht zwischen 1 und 999.")
    assert (value.value.problem.code, value.value.problem.field) == ("range", "Round")


@pytest.mark.parametrize(("control", "minutes"), [
    ("5400+30", 120), ("40/7200:1800", 120), ("300+2", 7), ("600", 10), ("90 min + 30 s", 120),
    ("25 Min", 25), ("?", None), ("-", None), ("", None), ("Schnellschach", None),
])
def test_playing_minutes_for_sixty_moves(control, minutes):
    assert playing_minutes(control) == minutes
