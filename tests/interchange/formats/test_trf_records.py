import pytest

from clubrating.interchange.formats.trf import (
    NationalRating,
    PlayedGame,
    TrfError,
    national_ratings,
    parse_trf,
    played_games,
)

TRF = """012 Test
001    1 m    Huber, Anna                       1800 AUT     1234567 1990/05/04  1.5    1     2 w 1     3 b =
001    2 m    Maier, Karl                       1700 AUT             1985        0.5    2     1 b 0  0000 - H
001    3 m    Gruber, Bernd                        0 AUT             1970        0.5    3  0000 - -     1 w =
AUT    1      Huber, Anna                       1750         12345
AUT    3      Gruber, Bernd                        0
XXR 2
"""


def test_national_ratings_from_the_federation_lines():
    assert national_ratings(parse_trf(TRF)) == {
        1: NationalRating(rating=1750, national_id="12345"),
        3: NationalRating(rating=None, national_id=""),
    }


def test_played_games_once_each_from_the_lower_start_rank():
    assert played_games(parse_trf(TRF)) == [
        PlayedGame(round=1, white=1, black=2, white_score=1.0),
        PlayedGame(round=2, white=3, black=1, white_score=0.5),
    ]


def test_played_games_refuse_lines_that_disagree():
    bad = TRF.replace("2 w 1     3 b =", "2 w 1     3 b 1")
    # The reader refuses them already, so that every reader of the file refuses it alike.
    with pytest.raises(TrfError) as error:
        played_games(parse_trf(bad))
    assert (error.value.line_no, error.value.message, error.value.problem.code) == (
        2, "round 2: the results of players 1 (1) and 3 (=) do not fit together.", "results")
