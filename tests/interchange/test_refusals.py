"""The pure readers' errors as translated refusals: the same words in German and English as the
importers have always shown."""

import pytest
from django.utils import translation

from clubrating.interchange.formats.pgn import MESSAGES, PgnError, _move_error, read_pgn
from clubrating.interchange.refusals import pgn_refused

HEAD = '[Event "E"]\n[Date "2025.03.07"]\n[Round "{round}"]\n[White "{white}"]\n[Black "B, C"]\n'
GAME_DE = "Partie 1 (Zeile 1, A, B – B, C)"


def pgn(result="1-0", moves="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", round="1", white="A, B",
        extra=""):
    return HEAD.format(round=round, white=white) + f'[Result "{result}"]\n{extra}\n{moves}\n'


# Every message of the reader, in German as the catalogue has it.
GERMAN = {
    "moves_first": ("1. e4 *\n", "Zeile 1: Züge vor den Kopfzeilen der ersten Partie."),
    "header": ('[Event "E', 'Zeile 1: die Kopfzeile [Event "E ist abgeschnitten oder fehlerhaft.'),
    "missing": (pgn(white="?"), "Partie 1 (Zeile 1, ? – B, C): die Kopfzeile White fehlt."),
    "result": (pgn(result="*", moves=""), f"{GAME_DE}: * ist nicht das Ergebnis einer beendeten Partie."),
    "cut_off": (pgn(moves="1. e4"),
                f"{GAME_DE}: die Züge enden nicht mit einem Ergebnis; die Datei scheint abgeschnitten "
                "zu sein."),
    "ending": (pgn(moves="1. e4 0-1"),
               f"{GAME_DE}: die Züge enden mit 0-1, die Kopfzeile Result sagt aber 1-0."),
    "illegal": (pgn(moves="1. e5 1-0"), f"{GAME_DE}: der Zug 1. e5 ist in dieser Stellung nicht möglich."),
    "ambiguous": (pgn(moves="1. d4 a6 2. Nf3 a5 3. Nd2 1-0"),
                  f"{GAME_DE}: den Zug 3. Nd2 könnte mehr als eine Figur machen."),
    "not_move": (pgn(moves="1. e4 e5 2. Q@h5 1-0"), f"{GAME_DE}: Q@h5 ist kein Zug."),
    "round": (pgn(round="x"), f"{GAME_DE}: die Runde x ist keine Zahl wie 3 oder 3.1."),
    "value": (pgn(extra='[BlackElo "99"]\n'),
              f"{GAME_DE}: BlackElo „99“ ist keine Wertungszahl: 0 (ohne Wertung) oder 100 bis 3000."),
    "self": (pgn(white="b,c"), "Partie 1 (Zeile 1, b,c – B, C): niemand kann gegen sich selbst spielen."),
    "empty": ("", "Die Datei enthält keine Partien."),
}


def refusal(text: str):
    with pytest.raises(PgnError) as caught:
        read_pgn(text)
    return pgn_refused(caught.value)


def test_every_message_is_covered():
    assert set(GERMAN) | {"moves"} == set(MESSAGES)


def test_moves_python_chess_refuses_in_other_words_are_refused_in_ours():
    game = read_pgn(pgn())[0]
    with translation.override("de-at"):
        assert pgn_refused(_move_error(game, ValueError("unexpected token"))).message == (
            f"{GAME_DE}: die Züge können nicht gelesen werden.")


@pytest.mark.parametrize(("text", "message"), GERMAN.values(), ids=GERMAN.keys())
def test_pgn_refusals_in_german(text, message):
    with translation.override("de-at"):
        assert refusal(text).message == message


def test_a_value_refusal_names_the_game_line_and_header():
    refused = refusal(pgn(extra='[WhiteFideId "x1"]\n'))
    assert (refused.message, refused.line, refused.field) == (
        "Game 1 (line 1, A, B – B, C): WhiteFideId “x1” is not a whole number.", 1, "WhiteFideId")


def test_a_control_character_reads_as_in_every_file():
    refused = refusal(pgn(white="A\x07, B"))
    assert (refused.message, refused.line, refused.field) == (
        "Line 4: column 10 holds a control character (U+0007).", 4, "")
    with translation.override("de-at"):
        assert refusal(pgn(white="A\x07, B")).message == (
            "Zeile 4: Spalte 10 enthält ein Steuerzeichen (U+0007).")
