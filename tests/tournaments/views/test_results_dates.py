"""Result entry and the calendar: a round dated after today asks before its result is entered
(and rated); a board in a closed rating period is shown locked, with the reason."""

import datetime

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Game, Result, ResultChange, Round, TournamentKind
from ratings.models import PoolMember, RatingRecord
from ratings.services import game_record_result, period_close, pool_create
from tests.factories import (
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)
from tests.language import speak

from .helpers import page, text
from .test_results import save

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 25)


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: TODAY)


def _dated(tournament, day):
    Round.objects.filter(tournament=tournament, number=1).update(date=day)
    return Game.objects.select_related("round").get(round__tournament=tournament, board=1)


@pytest.mark.parametrize(("lang", "question", "button"), [
    ("de-at", "Brett 1 wird am 02.12.2026 gespielt, also nach heute. 1-0 trotzdem eintragen? "
              "Es zählt für die Wertung an diesem Tag.", "Ergebnis eintragen"),
    ("en", "Board 1 is played on 2026-12-02, after today. Enter 1-0 all the same? "
           "It counts for the ratings on that day.", "Enter the result"),
])
def test_a_result_for_a_round_after_today_asks_first(official_client, tournament, lang, question, button):
    game = _dated(tournament, datetime.date(2026, 12, 2))
    html = text(save(official_client, game, Result.WHITE_WINS, lang=lang, confirm=False))
    assert question in html
    assert button in html
    assert 'name="confirm" value="1-0"' in html
    assert 'name="reason"' not in html  # a first result: nothing to give a reason for
    game.refresh_from_db()
    assert game.result == Result.NOT_PLAYED
    assert not ResultChange.objects.filter(game=game).exists()
    assert not RatingRecord.objects.filter(game=game).exists()
    # Confirmed, it is entered and rated on its day.
    html = text(save(official_client, game, Result.WHITE_WINS, lang=lang, confirm=True))
    assert "data-saved" in html
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS
    assert sorted(RatingRecord.objects.filter(game=game).values_list("played_on", flat=True)) == [
        datetime.date(2026, 12, 2)] * 2


def test_a_result_for_today_or_earlier_is_saved_at_once(official_client, tournament):
    game = _dated(tournament, TODAY)
    html = text(save(official_client, game, Result.DRAW, confirm=False))
    assert "data-saved" in html and "data-confirm" not in html
    game.refresh_from_db()
    assert game.result == Result.DRAW


def test_without_javascript_the_question_comes_as_a_page(official_client, tournament):
    game = _dated(tournament, datetime.date(2026, 12, 2))
    html = text(save(official_client, game, Result.BLACK_WINS, lang="de-at", htmx=False, confirm=False))
    assert "Brett 1 wird am 02.12.2026 gespielt, also nach heute. 0-1 trotzdem eintragen?" in html
    game.refresh_from_db()
    assert game.result == Result.NOT_PLAYED


@pytest.fixture
def spring(home_club):
    """A round robin of 1.–30.6.2026 in a pool whose period 1.1.–30.6.2026 is closed: board 1
    drawn before closing, board 2 without result."""
    pool = pool_create(name="ÖSB Standard", start_date=datetime.date(2026, 1, 1))
    tournament = TournamentFactory(name="Frühjahrsturnier", kind=TournamentKind.ROUND_ROBIN,
                                   start_date=datetime.date(2026, 6, 1), rounds_count=3)
    members = [MemberFactory(last_name=name, club=home_club) for name in ("Adler", "Berger", "Ced", "Dorn")]
    for rank, member in enumerate(members, start=1):
        TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, rating=1800)
        PoolMember.objects.create(pool=pool, member=member, rating=1800, games_count=30, live_rating=1800)
    rnd = RoundFactory(tournament=tournament, number=1, date=datetime.date(2026, 6, 20))
    drawn = GameFactory(round=rnd, board=1, white=members[0], black=members[3], result=Result.NOT_PLAYED)
    GameFactory(round=rnd, board=2, white=members[1], black=members[2], result=Result.NOT_PLAYED)
    game_record_result(game=drawn, result=Result.DRAW)
    period_close(pool=pool)
    return tournament


@pytest.mark.parametrize(("lang", "note"), [
    ("de-at", "Gesperrt: Die Partie liegt in der abgeschlossenen Wertungsperiode 01.01.2026 – 30.06.2026 "
              "von „ÖSB Standard“. Ihr Ergebnis kann erst geändert werden, wenn der Wertungsreferent "
              "die Periode wieder öffnet."),
    ("en", "Locked: the game lies in the closed rating period 2026-01-01 – 2026-06-30 of “ÖSB Standard”. "
           "Its result can be changed once the rating officer reopens the period."),
])
def test_boards_of_a_closed_period_are_shown_locked(official_client, spring, lang, note):
    html = text(page(official_client, "results", spring.pk, 1, lang=lang))
    assert html.count(note) == 2
    assert html.count('data-locked="1"') == 2
    assert 'name="result"' not in html  # no result control to change
    assert "½-½" in html  # board 1's result, shown as text


def test_a_board_outside_closed_periods_stays_editable(official_client, tournament):
    html = text(page(official_client, "results", tournament.pk, 1))
    assert 'data-locked="1"' not in html
    assert html.count('name="result"') == 2 * 7


def test_the_round_page_reads_the_closed_periods_in_a_fixed_number_of_queries(
        official_client, spring, django_assert_max_num_queries):
    url = reverse("tournaments:results", args=[spring.pk, 1])
    official_client.get(url)
    with django_assert_max_num_queries(20):
        official_client.get(url)


def test_another_result_typed_while_the_date_question_is_open_is_asked_again(official_client, tournament):
    game = _dated(tournament, datetime.date(2026, 12, 2))
    url = reverse("tournaments:board_result", args=[game.round.tournament_id, game.round.number, game.pk])

    speak(official_client, "en")
    html = text(official_client.post(url, {"result": Result.DRAW, "seen": "", "confirm": "1-0"},
                                     HTTP_HX_REQUEST="true"))

    assert "Board 1 is played on 2026-12-02, after today. Enter ½-½ all the same?" in html
    game.refresh_from_db()
    assert game.result == Result.NOT_PLAYED
