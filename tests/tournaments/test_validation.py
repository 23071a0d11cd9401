"""clubrating.tournaments.validation: the one check of a result, run by the result-entry service."""

import pytest
from django.utils import translation

from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import Result
from clubrating.tournaments.validation import result_validate
from tests.factories import ByeFactory, GameFactory, MemberFactory, RoundFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return GameFactory(round=RoundFactory(), board=1, result="", rated_result="")


@pytest.mark.parametrize(("result", "rated"), [
    ("1-0", None), ("1-0", "1-0"), ("1/2", None), ("", None), ("", ""),
    ("+-", None), ("+-", "1-0"), ("-+", "1/2"), ("--", "0-1"), ("--", None),
])
def test_accepted(game, result, rated):
    assert result_validate(game=game, result=result, rated_result=rated) is None


@pytest.mark.parametrize(("result", "rated", "code", "message"), [
    ("2-0", None, "invalid_result", "Choose one of the results offered."),
    ("1-0", "x", "invalid_result", "Choose one of the results offered."),
    ("", "1-0", "rated_without_result", "A game that is not played yet cannot have a rated result."),
    ("1-0", "0-1", "rated_differs", "A game scored as played over the board is rated as scored."),
    ("1-0", "+-", "rated_differs", "A game scored as played over the board is rated as scored."),
    ("+-", "--", "rated_forfeit",
     "A forfeit is not rated; only the result played over the board can be rated instead."),
    ("+-", "", "rated_forfeit",
     "A forfeit is not rated; only the result played over the board can be rated instead."),
])
def test_refused(game, result, rated, code, message):
    with translation.override("en"), pytest.raises(TournamentRefused) as refused:
        result_validate(game=game, result=result, rated_result=rated)
    assert (refused.value.code, refused.value.message) == (code, message)


def test_a_player_with_a_bye_cannot_have_a_result(game):
    ByeFactory(round=game.round, member=game.white)
    with pytest.raises(TournamentRefused) as refused:
        result_validate(game=game, result=Result.WHITE_WINS)
    assert refused.value.code == "bye_and_game"
    result_validate(game=game, result=Result.NOT_PLAYED)  # taking a result back stays possible


def test_a_player_paired_twice_cannot_have_a_result(game):
    GameFactory(round=game.round, board=2, white=MemberFactory(), black=game.white, result="")
    with pytest.raises(TournamentRefused) as refused:
        result_validate(game=game, result=Result.DRAW)
    assert refused.value.code == "player_twice"


def test_the_message_is_translated(game):
    with translation.override("de-at"), pytest.raises(TournamentRefused) as refused:
        result_validate(game=game, result="+-", rated_result="--")
    assert refused.value.message == ("Eine kampflose Partie wird nicht gewertet; gewertet werden kann "
                                     "nur das am Brett erspielte Ergebnis.")


def test_many_games_pairing_conflict_among_them_and_beside_the_round(game):
    """The check for many games at once (an import's games before they are stored): the first
    game that puts a player into its round twice, with the member and the code of the refusal."""
    from clubrating.tournaments.models import Game
    from clubrating.tournaments.validation import games_pairing_conflict

    a, b, c, d = (MemberFactory() for _ in range(4))
    fresh = [Game(round=game.round, board=2, white=a, black=b),
             Game(round=game.round, board=3, white=c, black=d)]
    assert games_pairing_conflict(games=fresh) is None
    assert games_pairing_conflict(games=[game]) is None  # a stored game is not beside itself
    twice = Game(round=game.round, board=4, white=MemberFactory(), black=a)  # "a" again, as Black
    assert games_pairing_conflict(games=[*fresh, twice]) == (twice, a.pk, "player_twice")
    beside = Game(round=game.round, board=2, white=a, black=game.black)  # the stored game's Black
    assert games_pairing_conflict(games=[beside]) == (beside, game.black_id, "player_twice")
    ByeFactory(round=game.round, member=c)
    assert games_pairing_conflict(games=fresh) == (fresh[1], c.pk, "bye_and_game")
