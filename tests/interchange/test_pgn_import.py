from collections import Counter
from datetime import date

import pytest

from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.pgn_import import games_import_pgn
from clubrating.tournaments.models import Game, TournamentKind, TournamentPlayer
from tests.factories import GameFactory, MemberFactory, TournamentFactory

from .conftest import PGN_DIR

pytestmark = pytest.mark.django_db

GAME = """[Event "Vereinsabend"]
[Date "2025.03.07"]
[Round "{round}"]
[White "{white}"]
[Black "{black}"]
[Result "{result}"]
[TimeControl "5400+30"]

{moves}
"""


def pgn(*games: dict) -> str:
    defaults = {
        "round": "1.1",
        "white": "Huber, Anna",
        "black": "Gruber, Bernd",
        "result": "1-0",
        "moves": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
    }
    return "\n".join(GAME.format(**{**defaults, **g}) for g in games)


def test_uzchess_cup_round_robin():
    report = games_import_pgn(
        text=(PGN_DIR / "uzchess-cup-2025.pgn").read_text(), tournament="UzChess Cup 2025"
    )
    t = report.tournaments[0]
    assert (t.name, t.kind, t.category, t.start_date, t.end_date, t.rounds_count) == (
        "UzChess Cup 2025",
        TournamentKind.ROUND_ROBIN,
        "standard",
        date(2025, 6, 18),
        date(2025, 6, 27),
        9,
    )
    # The tie-break regulations of its start date and the list recommended for a round robin.
    assert (t.tiebreak_rules, t.tiebreaks) == ("2023", "DE,WIN,SB,KS")
    assert (report.games, report.with_moves, len(report.created), len(report.matched)) == (45, 0, 10, 0)
    games = Game.objects.filter(round__tournament=t)
    assert Counter(games.values_list("result", flat=True)) == {"1/2": 24, "1-0": 12, "0-1": 9}
    first = games.get(round__number=1, board=1)
    assert (
        first.white.last_name,
        first.white.first_name,
        first.white.fide_id,
        first.black.last_name,
        first.result,
        first.date,
    ) == ("Aravindh", "Chithambaram VR.", 5072786, "Praggnanandhaa R", "1/2", date(2025, 6, 18))
    top = TournamentPlayer.objects.get(tournament=t, start_rank=1)
    assert (top.member.last_name, top.fide_rating, top.member.fide_title) == ("Erigaisi Arjun", 2782, "GM")


def test_womens_world_rapid_swiss_with_clashing_board_numbers():
    report = games_import_pgn(text=(PGN_DIR / "womens-world-rapid-2024.pgn").read_text())
    t = report.tournaments[0]
    assert (t.name, t.kind, t.category, t.start_date, t.end_date, t.rounds_count, t.place) == (
        "FIDE Women’s World Rapid Championships 2024",
        TournamentKind.SWISS,
        "rapid",
        date(2024, 12, 26),
        date(2024, 12, 28),
        11,
        "New York, United States",
    )
    assert (report.games, len(report.created), t.players.count()) == (605, 110, 110)
    assert list(t.rounds.values_list("games__board", flat=True).distinct().order_by("-games__board")[:1]) == [
        55
    ]
    # Two broadcasts number their boards from 1 each: the round's boards follow the file order.
    board_28 = Game.objects.get(round__tournament=t, round__number=1, board=28)
    assert (board_28.white.last_name, board_28.black.last_name) == ("Vaishali", "Khamdamova")
    assert Counter(Game.objects.filter(round__tournament=t).values_list("result", flat=True)) == {
        "1-0": 244,
        "0-1": 197,
        "1/2": 164,
    }


def test_players_matched_by_fide_id_then_name_and_moves_kept():
    anna = MemberFactory(last_name="Huber", first_name="Anna")
    bernd = MemberFactory(last_name="Gruber", first_name="Bernd", fide_id=1601002)
    text = pgn({}).replace('[Black "Gruber, Bernd"]', '[Black "Gruber, B."]\n[BlackFideId "1601002"]')
    report = games_import_pgn(text=text)
    game = Game.objects.get()
    assert (game.white, game.black, game.result, game.moves, game.date) == (
        anna,
        bernd,
        "1-0",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        date(2025, 3, 7),
    )
    assert report.matched == [anna, bernd] and report.tournaments[0].category == "standard"


def test_games_added_to_an_existing_tournament_continue_its_boards():
    tournament = TournamentFactory(name="Vereinsabend")
    existing = GameFactory(round__tournament=tournament, round__number=1, board=1)
    games_import_pgn(text=pgn({}), tournament=tournament)
    assert list(Game.objects.filter(round__tournament=tournament).values_list("board", flat=True)) == [1, 2]
    assert existing.round.games.count() == 2


BAD = {
    "truncated moves": (
        pgn({})[:-12],
        r"Game 1 \(line 1, Huber, Anna – Gruber, Bernd\): the moves do not end",
    ),
    "truncated header": (
        pgn({}) + '\n[Event "Vereinsabend"]\n[White "Mai',
        r"Line 12: the header \[White \"Mai is cut off",
    ),
    "unknown result": (pgn({"result": "*", "moves": "1. e4 *"}), r"the result \* is not a finished game"),
    "player twice": (
        pgn({}, {"round": "1.2", "white": "Maier, Carl", "black": "Huber, Anna"}),
        r"Game 2 .*: Huber, Anna plays twice in round 1",
    ),
    "illegal move": (pgn({"moves": "1. e4 e5 2. Ke3 1-0"}),
                     r"the move 2. Ke3 is not allowed in this position\.$"),
    "no round": (pgn({"round": "?"}), r"the round \? is not a number like 3 or 3.1"),
    "result mismatch": (
        pgn({"moves": "1. e4 e5 0-1"}),
        r"the moves end with 0-1 but the Result header says 1-0",
    ),
}


@pytest.mark.parametrize("text, message", BAD.values(), ids=BAD.keys())
def test_malformed_pgn_is_refused_and_changes_nothing(text, message, counts):
    before = counts()
    with pytest.raises(ImportRefused, match=message):
        games_import_pgn(text=text)
    assert counts() == before


def test_event_date_starts_the_tournament_and_date_tags_date_the_rounds():
    """EventDate is the event's first day, Date the game's: a new tournament starts on the
    EventDate and each round is dated by its games' Date; a game without a Date gets none of its
    own (it counts on its round's date, else the tournament's start), never the EventDate."""
    def dated(game: dict, day: str) -> str:
        return pgn(game).replace('[Date "2025.03.07"]', f'[EventDate "2025.03.01"]\n[Date "{day}"]')

    first = dated({"round": "1.1"}, "2025.03.07")
    second = dated({"round": "2.1", "white": "Gruber, Bernd", "black": "Huber, Anna"}, "2025.03.14")
    third = dated({"round": "3.1"}, "????.??.??")
    games_import_pgn(text="\n".join([first, second, third]), tournament="Vereinsabend")
    games = Game.objects.filter(round__tournament__name="Vereinsabend").select_related("round__tournament")
    games = list(games.order_by("round__number"))
    assert games[0].round.tournament.start_date == date(2025, 3, 1)
    assert [(g.round.date, g.date, g.played_on) for g in games] == [
        (date(2025, 3, 7), date(2025, 3, 7), date(2025, 3, 7)),
        (date(2025, 3, 14), date(2025, 3, 14), date(2025, 3, 14)),
        (None, None, date(2025, 3, 1)),
    ]
