"""The imports record their results through the one owner (``recording.game_results_record``):
an imported tournament and the same results entered board by board (``game_result_record``) give
the same games and the same ratings, to the last digit; a refused row refuses the whole import."""

import datetime

import pytest
from django.db import transaction

from clubrating.clubs.models import Member
from clubrating.interchange import results as import_results
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments import recording
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import PLAYED_RESULTS, Game, Result, ResultChange, Tournament
from ratings.models import PoolMember, RatingRecord
from ratings.services import period_close, ratings_import_list
from ratings.services.pools import open_period, tournament_rate_in_pool
from tests.factories import GameFactory, RoundFactory, TournamentFactory
from tests.paths import TRF_DIR
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db

TRF = TRF_DIR / "gros-2010-r4.trf"


def _snapshot(tournament: Tournament, pool) -> dict:
    """The tournament's games and every rating value the pool holds, keyed by what stays the
    same whichever way the results came in (round, board, members)."""
    games = sorted(
        Game.objects.filter(round__tournament=tournament).values_list(
            "round__number", "board", "white_id", "black_id", "result", "rated_result", "rated",
            "has_colours")
    )
    records = sorted(
        RatingRecord.objects.filter(pool=pool, game__round__tournament=tournament).values_list(
            "game__round__number", "game__board", "member_id", "opponent_id", "white", "played_on",
            "period_id", "score", "own_rating", "opponent_rating", "difference", "expected", "factor",
            "change")
    )
    members = sorted(
        PoolMember.objects.filter(pool=pool).values_list(
            "member_id", "rating", "live_rating", "live_change", "live_points", "live_expected",
            "start_value")
    )
    history = sorted(
        ResultChange.objects.filter(game__round__tournament=tournament).values_list(
            "game__round__number", "game__board", "old_result", "new_result", "old_rated_result",
            "new_rated_result")
    )
    return {"games": games, "records": records, "members": members, "history": history}


def _import(pool):
    return tournament_import_trf(
        text=TRF, before_results=lambda tournament: tournament_rate_in_pool(tournament=tournament, pool=pool))


def test_an_import_rates_exactly_as_the_same_results_entered_board_by_board(monkeypatch):
    pool = make_pool(name="Klassisch", start=datetime.date(2010, 1, 1))
    # The players exist with their ratings before the tournament: an unrated copy brings them in,
    # the file's ratings are the pool's starting list.
    tournament_import_trf(text=TRF, name="Vorlauf", rated=False)
    assert ratings_import_list(pool=pool, path=TRF).unknown == []

    savepoint = transaction.savepoint()
    imported = _snapshot(_import(pool).tournament, pool)
    transaction.savepoint_rollback(savepoint)
    assert not Tournament.objects.filter(name="XX Open Internacional de Gros").exists()

    def one_by_one(*, games, results, user=None):
        for game, (result, rated_result) in zip(games, results, strict=True):
            recording.game_result_record(game=game, result=result, rated_result=rated_result, user=user)

    monkeypatch.setattr(import_results, "game_results_record", one_by_one)
    entered = _snapshot(_import(pool).tournament, pool)

    assert imported == entered
    # 93 games, each with its history row; two records per game played and rated; 41 players with
    # a live rating.
    played = sum(1 for game in imported["games"] if game[5] in PLAYED_RESULTS and game[6])
    live = [member for member in imported["members"] if member[2] is not None]
    assert (len(imported["games"]), len(imported["history"]), len(live)) == (93, 93, 41)
    assert len(imported["records"]) == 2 * played and played > 80


def test_a_refused_result_refuses_the_whole_set_and_writes_nothing():
    rnd = RoundFactory(tournament=TournamentFactory(), number=1)
    games = [GameFactory(round=rnd, board=board, result=Result.NOT_PLAYED) for board in (1, 2, 3)]
    with pytest.raises(TournamentRefused) as refused:
        recording.game_results_record(
            games=games, results=[(Result.WHITE_WINS, None), (Result.DRAW, None),
                                  (Result.WHITE_WINS, Result.BLACK_WINS)])
    assert refused.value.code == "rated_differs"
    assert str(refused.value) == (
        "Round 1, board 3: A game scored as played over the board is rated as scored.")
    assert list(Game.objects.filter(round=rnd).order_by("board").values_list("result", flat=True)) == [
        "", "", ""]
    assert not ResultChange.objects.exists()


def test_an_import_with_a_row_in_a_closed_period_is_refused_whole():
    pool = make_pool(name="Klassisch", start=datetime.date(2010, 1, 1))
    tournament_import_trf(text=TRF, name="Vorlauf", rated=False)
    ratings_import_list(pool=pool, path=TRF)
    while open_period(pool).start <= datetime.date(2010, 10, 2):  # up to the tournament's period
        period_close(pool=pool)
    members, games, tournaments = Member.objects.count(), Game.objects.count(), Tournament.objects.count()
    with pytest.raises(ImportRefused) as refused:
        _import(pool)
    assert str(refused.value) == (
        "The game of 24.09.2010 lies in the closed rating period 01.07.2010–31.12.2010 of “Klassisch”; "
        "it cannot be changed unless the period is reopened.")
    assert (Member.objects.count(), Game.objects.count(), Tournament.objects.count()) == (
        members, games, tournaments)
