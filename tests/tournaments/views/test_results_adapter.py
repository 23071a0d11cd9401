"""clubrating.tournaments.results: validation and both paths (ratings service present or not)."""

import pytest
from django.core.exceptions import ValidationError

from clubrating.tournaments import results
from clubrating.tournaments.models import Game, Result, ResultChange
from ratings.models import RatingRecord
from tests.factories import ByeFactory

pytestmark = pytest.mark.django_db


def board(tournament):
    return Game.objects.get(round__tournament=tournament, board=1)


def test_with_the_ratings_service_records_are_written(tournament, official):
    entered = results.result_enter(game=board(tournament), result=Result.DRAW, user=official)
    assert entered.changed and entered.game.result == Result.DRAW
    assert sorted(RatingRecord.objects.values_list("score", flat=True)) == [0.5, 0.5]


def test_without_the_ratings_service_game_and_history_are_saved(tournament, official, monkeypatch):
    monkeypatch.setattr(results, "_ratings_service", lambda: None)
    game = board(tournament)
    results.result_enter(game=game, result=Result.WHITE_WINS, user=official)
    results.result_enter(game=game, result=Result.WHITE_FORFEIT_WIN, rated_result=Result.WHITE_WINS,
                         user=official)
    game.refresh_from_db()
    assert (game.result, game.rated_result) == ("+-", "1-0")
    assert list(ResultChange.objects.values_list("old_result", "new_result", "old_rated_result",
                                                 "new_rated_result", "changed_by")) == [
        ("", "1-0", "", "1-0", official.pk), ("1-0", "+-", "1-0", "1-0", official.pk)]
    assert not RatingRecord.objects.exists()


def test_an_unchanged_result_writes_no_history(tournament, official):
    game = board(tournament)
    results.result_enter(game=game, result=Result.DRAW, user=official)
    game.refresh_from_db()
    assert results.result_enter(game=game, result=Result.DRAW, user=official).changed is False
    assert ResultChange.objects.count() == 1


@pytest.mark.parametrize(("result", "rated", "code"), [
    ("2-0", None, "invalid_result"),
    ("1-0", "x", "invalid_result"),
    ("", "1-0", "rated_without_result"),
    ("1-0", "0-1", "rated_differs"),
])
def test_invalid_input_is_refused(tournament, result, rated, code):
    with pytest.raises(ValidationError) as error:
        results.result_enter(game=board(tournament), result=result, rated_result=rated, user=None)
    assert error.value.code == code
    assert not ResultChange.objects.exists()


def test_a_player_with_a_bye_cannot_have_a_result(tournament):
    game = board(tournament)
    ByeFactory(round=game.round, member=game.white)
    with pytest.raises(ValidationError) as error:
        results.result_enter(game=game, result=Result.WHITE_WINS, user=None)
    assert error.value.code == "bye_and_game"


def test_the_ratings_services_refusal_becomes_a_validation_error(tournament, monkeypatch):
    def refuse(**kwargs):
        raise ValueError("Die Periode ist abgeschlossen.")

    monkeypatch.setattr(results, "_ratings_service", lambda: refuse)
    with pytest.raises(ValidationError) as error:
        results.result_enter(game=board(tournament), result=Result.WHITE_WINS, user=None)
    assert error.value.messages == ["Die Periode ist abgeschlossen."]
