"""The one owner of recording a result (clubrating.tournaments.recording): it checks, writes and,
through the rater the ratings app registers, rates."""

import pytest

from clubrating.core.errors import Refused
from clubrating.tournaments import recording
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import Result, ResultChange
from ratings.services.results import ResultRater
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_the_ratings_app_registered_its_rater():
    assert isinstance(recording._rater, ResultRater)


class Spy:
    """A rater that notes what it is asked, in order."""

    def __init__(self):
        self.calls = []

    def scope(self):
        from contextlib import nullcontext
        self.calls.append("scope")
        return nullcontext()

    def prepare(self, game):
        self.calls.append(("prepare", game.result))
        return "prepared"

    def rate(self, game, prepared):
        self.calls.append(("rate", game.result, prepared))


@pytest.fixture
def spy(monkeypatch):
    spy = Spy()
    monkeypatch.setattr(recording, "_rater", spy)
    return spy


def test_checks_then_writes_then_rates(spy):
    game = GameFactory(result=Result.NOT_PLAYED)
    saved = recording.game_result_record(game=game, result=Result.DRAW, seen="", reason="am Brett")
    assert saved.result == Result.DRAW and saved.rated_result == Result.DRAW
    # Prepared under the lock before the write (the old result), rated after it (the new one).
    assert spy.calls == ["scope", ("prepare", ""), ("rate", Result.DRAW, "prepared")]
    change = ResultChange.objects.get(game=game)
    assert (change.old_result, change.new_result, change.reason) == ("", Result.DRAW, "am Brett")


def test_a_stale_page_and_a_bad_result_change_nothing(spy):
    game = GameFactory(result=Result.WHITE_WINS)
    with pytest.raises(TournamentRefused) as stale:
        recording.game_result_record(game=game, result=Result.DRAW, seen="")
    assert stale.value.code == "stale"
    with pytest.raises(Refused):
        recording.game_result_record(game=game, result=Result.DRAW, rated_result=Result.WHITE_WINS)
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS and not ResultChange.objects.filter(game=game).exists()
    assert [call for call in spy.calls if call != "scope"] == []


def test_without_a_rater_a_result_is_checked_and_written(monkeypatch):
    monkeypatch.setattr(recording, "_rater", None)
    game = GameFactory(result=Result.NOT_PLAYED)
    assert recording.game_result_record(game=game, result=Result.BLACK_WINS).result == Result.BLACK_WINS


def test_only_the_owner_of_recording_writes_results():
    """Imports, leagues, the admin, the demo and a round robin withdrawal record results through
    ``recording``; nothing else calls the writer (``writing``)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    callers = {
        str(path.relative_to(root))
        for package in ("clubrating", "ratings")
        for path in (root / package).rglob("*.py")
        if "game_results_write(" in path.read_text(encoding="utf-8")
    }
    assert callers == {"clubrating/tournaments/recording.py", "clubrating/tournaments/writing.py"}


class ManySpy(Spy):
    def prepare_many(self, games):
        self.calls.append(("prepare_many", [g.result for g in games]))
        return "prepared"

    def rate_many(self, games, prepared):
        self.calls.append(("rate_many", [g.result for g in games], prepared))


def test_a_round_robin_withdrawal_records_its_forfeits_through_the_owner(monkeypatch):
    from clubrating.tournaments import services
    from clubrating.tournaments.models import TournamentKind
    from tests.factories import TournamentFactory
    from tests.tournaments.test_services import register

    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    register(t, [2000, 1900, 1800, 1700])
    services.schedule_pair(tournament=t)
    spy = ManySpy()
    monkeypatch.setattr(recording, "_rater", spy)
    services.player_withdraw(player=t.players.get(member__last_name="P4"), from_round=2)
    # Berger table for 4: P4 plays White in round 2 (4-3) and Black in round 3 (2-4); his games
    # are checked, written with their history and handed to the rater, in one recording.
    assert spy.calls == ["scope", ("prepare_many", ["", ""]),
                         ("rate_many", [Result.BLACK_FORFEIT_WIN, Result.WHITE_FORFEIT_WIN], "prepared")]
    assert sorted(ResultChange.objects.values_list("game__round__number", "new_result")) == [
        (2, Result.BLACK_FORFEIT_WIN), (3, Result.WHITE_FORFEIT_WIN)]
