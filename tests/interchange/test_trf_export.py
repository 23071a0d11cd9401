"""TRF import then export: the player lines carry the same start ranks, points, opponents,
colours and results. Legitimate differences, each asserted exactly:

* ranks: the file's ranks are the organiser's (with his tie-breaks); the export ranks by points
  and then start rank, so within a score group the order may differ, never across groups;
* karl-mala-2005: the dummy "spielfrei" line is not a player (not exported); its 10 forfeits
  without colours ("153 - +") are stored with the lower start rank as white and exported with
  those colours; the old pairing-bye coding "0000 - +" is exported as TRF16's "0000 - U".
"""

from datetime import date

import pytest

from clubrating.interchange.trf_export import tournament_export_trf
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.models import ByeKind, Result
from ratings.trf.reader import parse_trf, read_trf
from tests.factories import ByeFactory, GameFactory, MemberFactory, TournamentFactory, TournamentPlayerFactory

from .conftest import TRF_DIR

pytestmark = pytest.mark.django_db


def _entries(player):
    return {g.round: (g.opponent, g.colour, g.result) for g in player.results if g.opponent or g.result}


@pytest.mark.parametrize(
    "name, rank_equal, colourless, legacy_byes",
    [
        ("gros-2010-r4", 21, 0, 0),
        ("karl-mala-2005", 18, 20, 1),
        ("san-viator-2018", 20, 0, 0),
    ],
)
def test_round_trip_gives_the_same_player_lines(name, rank_equal, colourless, legacy_byes):
    original = read_trf(TRF_DIR / f"{name}.trf")
    exported = parse_trf(
        tournament_export_trf(tournament=tournament_import_trf(text=TRF_DIR / f"{name}.trf").tournament)
    )
    players = {p.start_rank: p for p in exported.players}
    real = [p for p in original.players if not p.is_dummy]
    assert sorted(players) == [p.start_rank for p in real]
    same_rank = colour_diffs = bye_diffs = 0
    for player in real:
        again = players[player.start_rank]
        assert again.points == player.points
        if player.rank == again.rank:
            same_rank += 1
        if player.rank:  # 0 = withdrawn, unranked by the organiser
            group = [p.rank for p in real if p.points == player.points and p.rank]
            assert min(group) <= again.rank <= max(group) + sum(1 for p in real if not p.rank)
        before, after = _entries(player), _entries(again)
        assert before.keys() == after.keys()
        for number, (opponent, colour, result) in before.items():
            if (opponent, colour, result) == (None, "-", "+"):
                assert after[number] == (None, "-", "U")
                bye_diffs += 1
            elif colour == "-" and opponent:
                assert after[number][0] == opponent and after[number][2] == result
                assert after[number][1] in ("w", "b")
                colour_diffs += 1
            else:
                assert after[number] == (opponent, colour, result)
    assert (same_rank, colour_diffs, bye_diffs) == (rank_equal, colourless, legacy_byes)


def test_export_of_a_tournament_entered_in_the_club():
    tournament = TournamentFactory(
        name="Klubmeisterschaft",
        place="Graz",
        start_date=date(2025, 3, 1),
        rounds_count=3,
        director="Erika Schiri",
        time_control="90'+30\"",
    )
    anna = MemberFactory(
        last_name="Huber",
        first_name="Anna",
        sex="f",
        fide_id=1601001,
        fide_title="WFM",
        birth_year=None,
        birth_date=date(1990, 5, 17),
    )
    bernd = MemberFactory(last_name="Gruber", first_name="Bernd", birth_year=1985)
    carl = MemberFactory(last_name="Maier", first_name="Carl", birth_year=None)
    for rank, member, rating in ((1, anna, 2100), (2, bernd, None), (3, carl, None)):
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, fide_rating=rating)
    GameFactory(
        round__tournament=tournament, round__number=1, board=1, white=anna, black=bernd, result=Result.DRAW
    )
    ByeFactory(round__tournament=tournament, round__number=1, member=carl, kind=ByeKind.PAIRING)
    GameFactory(
        round__tournament=tournament,
        round__number=2,
        board=1,
        white=carl,
        black=anna,
        result=Result.BLACK_FORFEIT_WIN,
    )
    ByeFactory(round__tournament=tournament, round__number=2, member=bernd, kind=ByeKind.HALF)
    GameFactory(
        round__tournament=tournament,
        round__number=3,
        board=1,
        white=bernd,
        black=carl,
        result=Result.WHITE_WINS,
        rated=False,
    )
    text = tournament_export_trf(tournament=tournament)
    assert text.splitlines() == [
        "012 Klubmeisterschaft",
        "022 Graz",
        "032 AUT",
        "042 2025/03/01",
        "052",
        "062 3",
        "072 1",
        "082 0",
        "092 Individual: Swiss-System",
        "102 Erika Schiri",
        "112",
        "122 90'+30\"",
        "132" + " " * 88 + "25/03/01  25/03/02  25/03/03",
        "001    1 wWFM Huber, Anna                       2100         1601001 1990/05/17  1.5    2"
        "     2 w =     3 b +",
        "001    2 m    Gruber, Bernd                                          1985        2.0    1"
        "     1 b =  0000 - H     3 w W",
        "001    3 m    Maier, Carl                                                        1.0    3"
        "  0000 - U     1 w -     2 b L",
        "XXR 3",
    ]
