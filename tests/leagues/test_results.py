"""A match from lineup to decided result: the captains' steps, the director's decision, the
ratings of the board games (forfeits not rated) and who may do what."""

import datetime

import pytest
from django.contrib.auth.models import User

from clubrating.core.errors import Refused
from clubrating.leagues import services
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import MatchEvent, MatchStatus, Side
from clubrating.leagues.selectors import director_queue, league_match_score, league_matches, lineup_visible
from clubrating.tournaments.models import Result, ResultChange
from ratings.models import RatingRecord
from ratings.services import game_record_result, pool_recalculate
from tests.leagues.conftest import DATES, at, before_deadline, submit
from tests.ratings.factories import make_pool, publish_start_list
from tests.ratings.services.test_recalc import snapshot

pytestmark = pytest.mark.usefixtures("english")

DURING = at(DATES[0], 18)  # round 1 is being played


@pytest.fixture
def pool(league):
    pool = make_pool(start=datetime.date(2026, 1, 1))
    members = [m for club in ("Donaustadt", "Ottakring") for m in league.players[club]]
    publish_start_list(pool, {m: (2000 - 10 * i, 40) for i, m in enumerate(members)})
    return pool


@pytest.fixture
def lined_up(league):
    """Donaustadt 1 (home) and Ottakring 1 in round 1; Ottakring leaves board 4 empty."""
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, None])
    return league.match("Donaustadt 1", 1)


def enter(league, match, results, *, user=None, absent="", now=DURING):
    return services.match_results_enter(
        match=match,
        results=results,
        user=user or league.captains["Donaustadt 1"],
        record=game_record_result,
        absent=absent,
        now=now,
    )


def score(match):
    scored = league_match_score(league_matches().get(pk=match.pk))
    return scored.home_points, scored.away_points, [b.result for b in scored.boards]


def test_the_home_captain_enters_the_boards_each_rated_at_once_the_forfeit_not(league, pool, lined_up):
    match = enter(league, lined_up, {1: Result.WHITE_WINS})
    assert match.status == MatchStatus.OPEN  # two boards still open
    assert RatingRecord.objects.filter(pool=pool).count() == 2
    match = enter(league, lined_up, {2: Result.DRAW, 3: Result.WHITE_FORFEIT_WIN})
    assert (match.status, match.entered_at, match.entered_by) == (
        MatchStatus.ENTERED,
        DURING,
        league.captains["Donaustadt 1"],
    )
    games = {g.board: g for g in lined_up.match.games.all()}
    assert sorted(RatingRecord.objects.filter(pool=pool).values_list("game_id", flat=True)) == sorted(
        [games[1].pk, games[1].pk, games[2].pk, games[2].pk]
    )
    # Board 3 lost by forfeit, board 4 empty on Ottakring's side: both won by Donaustadt.
    assert score(match) == (3.5, 0.5, ["1–0", "½–½", "+–−", "+–−"])
    assert list(games[1].history.values_list("new_result", "changed_by")) == [
        (Result.WHITE_WINS, league.captains["Donaustadt 1"].pk)
    ]
    assert list(MatchEvent.objects.filter(match=match).values_list("kind", "at")) == [
        ("lineup", before_deadline(1)),
        ("lineup", before_deadline(1)),
        ("entered", DURING),
    ]


def test_the_away_captain_confirms(league, lined_up):
    enter(league, lined_up, {1: Result.WHITE_WINS, 2: Result.DRAW, 3: Result.BLACK_WINS})
    match = services.match_confirm(match=lined_up, user=league.captains["Ottakring 1"], now=at(DATES[0], 20))
    assert (match.status, match.confirmed_at, match.confirmed_by) == (
        MatchStatus.CONFIRMED,
        at(DATES[0], 20),
        league.captains["Ottakring 1"],
    )
    with pytest.raises(LeagueRefused) as caught:
        enter(league, lined_up, {1: Result.DRAW})
    assert caught.value.message == (
        "This result has been confirmed by the away team; only the league director can change it now."
    )


def test_a_dispute_is_rated_as_entered_until_the_director_decides_then_as_decided(league, pool, lined_up):
    enter(league, lined_up, {1: Result.WHITE_WINS, 2: Result.DRAW, 3: Result.BLACK_WINS})
    match = services.match_dispute(
        match=lined_up, user=league.captains["Ottakring 1"], reason="Brett 2 endete 0-1", now=at(DATES[0], 20)
    )
    assert (match.status, match.dispute_reason) == (MatchStatus.DISPUTED, "Brett 2 endete 0-1")
    board2 = lined_up.match.games.get(board=2)
    assert list(RatingRecord.objects.filter(pool=pool, game=board2).values_list("score", flat=True)) == [
        0.5,
        0.5,
    ]
    queue = director_queue(season=league.season, now=at(DATES[0], 21))
    assert [m.pk for m in queue.disputed] == [lined_up.pk]
    # The other match of the round has no result yet; those of the 1. Klasse neither.
    assert len(queue.missing) == 3

    match = services.match_decide(
        match=lined_up,
        user=league.director,
        reason="Partieformular geprüft",
        results={2: Result.BLACK_WINS},
        record=game_record_result,
        now=at(DATES[1], 10),
    )
    assert (match.status, match.decided_by, match.decision_reason) == (
        MatchStatus.DECIDED,
        league.director,
        "Partieformular geprüft",
    )
    assert list(
        ResultChange.objects.filter(game=board2).values_list("old_result", "new_result", "reason")
    ) == [("", Result.DRAW, ""), (Result.DRAW, Result.BLACK_WINS, "Partieformular geprüft")]
    assert sorted(RatingRecord.objects.filter(pool=pool, game=board2).values_list("score", flat=True)) == [
        0,
        1,
    ]
    assert score(match) == (3.0, 1.0, ["1–0", "1–0", "0–1", "+–−"])  # home has black on board 2
    before = snapshot(pool)
    pool_recalculate(pool=pool)
    assert snapshot(pool) == before
    assert director_queue(season=league.season, now=at(DATES[0], 21)).disputed == []


def test_a_whole_team_absent_loses_every_board_none_rated(league, pool, lined_up):
    match = enter(league, lined_up, {}, absent=Side.AWAY)
    assert match.status == MatchStatus.ENTERED and match.absent == Side.AWAY
    assert sorted(lined_up.match.games.values_list("board", "result")) == [
        (1, Result.WHITE_FORFEIT_WIN),
        (2, Result.BLACK_FORFEIT_WIN),
        (3, Result.WHITE_FORFEIT_WIN),
    ]
    assert not RatingRecord.objects.filter(pool=pool).exists()
    assert score(match) == (4.0, 0.0, ["+–−"] * 4)


def test_a_team_that_did_not_appear_loses_every_board_on_the_match_page_as_in_the_table(league):
    # Favoriten left board 3 empty; Hietzing did not appear at all: 4 : 0 (docs/rules.md), on the
    # captains' page and the match report as in the table (which counted 4 : 0, the page 3 : 0).
    submit(league, "Favoriten 1", 1, [1, 2, None, 4])
    match = services.match_results_enter(
        match=league.match("Favoriten 1", 1),
        results={},
        absent=Side.AWAY,
        user=league.captains["Favoriten 1"],
        record=game_record_result,
        now=DURING,
    )
    assert match.status == MatchStatus.ENTERED
    assert score(match) == (4.0, 0.0, ["+–−", "+–−", "+–−", "+–−"])
    from clubrating.leagues.selectors_public import division_data

    data = division_data(division=league.first)
    (card,) = [m for m in data.rounds[0][2] if m.league.pk == match.pk]
    assert (card.home_points, card.away_points, card.result.boards) == (4.0, 0.0, ((1.0, 0.0),) * 4)


def test_who_may_do_what(league, lined_up):
    away, home = league.captains["Ottakring 1"], league.captains["Donaustadt 1"]
    with pytest.raises(LeagueRefused) as caught:
        enter(league, lined_up, {1: Result.DRAW}, user=away)
    assert caught.value.message == "Only a captain of Donaustadt 1 or the league director may do this."
    with pytest.raises(LeagueRefused) as caught:
        enter(league, lined_up, {1: Result.DRAW}, now=at(DATES[0], 13))
    assert caught.value.message == "Results can be entered once the match has started."
    enter(league, lined_up, {1: Result.DRAW, 2: Result.DRAW, 3: Result.DRAW})
    with pytest.raises(LeagueRefused) as caught:
        services.match_confirm(match=lined_up, user=home)
    assert caught.value.message == "Only a captain of Ottakring 1 can confirm or dispute this result."
    with pytest.raises(LeagueRefused) as caught:
        services.match_dispute(match=lined_up, user=away, reason="  ")
    assert caught.value.message == "Say why you dispute the result."
    with pytest.raises(LeagueRefused) as caught:
        services.match_decide(match=lined_up, user=home, reason="x", record=game_record_result)
    assert caught.value.message == "Only the league director can decide a match."
    stranger = User.objects.create_user("fremd")
    with pytest.raises(LeagueRefused):
        submit(league, "Favoriten 1", 1, [1, 2, 3, 4], user=stranger)
    assert lined_up.match.games.filter(result=Result.DRAW).count() == 3


def test_the_deadline_closes_the_lineup_for_the_captain_not_for_the_director(league):
    deadline = at(DATES[0] - datetime.timedelta(days=1), 14)
    with pytest.raises(LeagueRefused) as caught:
        submit(league, "Donaustadt 1", 1, [1, 2, 3, 4], now=deadline)
    assert caught.value.message == (
        "The lineup deadline passed on 2026-10-03 at 14:00; ask the league director."
    )
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4], now=deadline, user=league.director)
    assert league.match("Donaustadt 1", 1).home_lineup_at == deadline


def test_the_opponent_sees_a_lineup_once_the_deadline_passed(league, lined_up):
    before = at(DATES[0] - datetime.timedelta(days=1), 13, 59)
    after = at(DATES[0] - datetime.timedelta(days=1), 14)
    home_captain, away_captain = league.captains["Donaustadt 1"], league.captains["Ottakring 1"]
    assert lineup_visible(match=lined_up, side=Side.HOME, user=home_captain, now=before)
    assert not lineup_visible(match=lined_up, side=Side.HOME, user=away_captain, now=before)
    assert lineup_visible(match=lined_up, side=Side.HOME, user=league.director, now=before)
    assert lineup_visible(match=lined_up, side=Side.HOME, user=away_captain, now=after)


def test_a_result_in_a_closed_rating_period_is_refused_with_its_board(league, lined_up, monkeypatch):
    def closed(**kwargs):
        raise Refused("The period is closed.")

    with pytest.raises(LeagueRefused) as caught:
        services.match_results_enter(
            match=lined_up,
            results={2: Result.DRAW},
            user=league.captains["Donaustadt 1"],
            record=closed,
            now=DURING,
        )
    assert caught.value.message == "Board 2: The period is closed."


def test_the_board_games_count_on_the_match_day_and_move_with_the_match(league, lined_up):
    assert set(lined_up.match.games.values_list("date", flat=True)) == {DATES[0]}
    later = at(DATES[0] + datetime.timedelta(days=3), 19)
    with pytest.raises(LeagueRefused) as caught:
        services.match_reschedule(match=lined_up, starts_at=later, user=league.captains["Donaustadt 1"])
    assert caught.value.message == "Only the league director can move a match."
    match = services.match_reschedule(
        match=lined_up, starts_at=later, user=league.director, reason="Halle belegt", now=at(DATES[0], 9)
    )
    # The move is kept in the match's history.
    assert list(MatchEvent.objects.filter(match=match, kind="moved").values_list("at", "by", "reason")) == [
        (at(DATES[0], 9), league.director.pk, "04.10.2026 14:00 → 07.10.2026 19:00 · Halle belegt")
    ]
    assert (match.starts_at, match.lineup_deadline(league.season)) == (
        later,
        at(DATES[0] + datetime.timedelta(days=2), 19),
    )
    assert set(lined_up.match.games.values_list("date", flat=True)) == {DATES[0] + datetime.timedelta(days=3)}
    enter(league, lined_up, {1: Result.DRAW}, now=at(DATES[0] + datetime.timedelta(days=3), 20))
    with pytest.raises(LeagueRefused) as caught:
        services.match_reschedule(match=lined_up, starts_at=at(DATES[1], 14), user=league.director)
    assert caught.value.message == "This match has results already; it can no longer be moved."


def test_a_captain_of_both_teams_does_not_confirm_his_own_entry(league):
    # Round 2 of the 1. Klasse is the club derby Donaustadt 2 – Donaustadt 3; one user captains both.
    both = league.captains["Donaustadt 2"]
    services.captain_add(team=league.teams["Donaustadt 3"], user=both)
    submit(league, "Donaustadt 2", 2, [5, 6, 7, 8])
    submit(league, "Donaustadt 3", 2, [9, 10, 11, 12])
    match = league.match("Donaustadt 2", 2)
    results = {board: Result.DRAW for board in (1, 2, 3, 4)}
    services.match_results_enter(
        match=match, results=results, user=both, record=game_record_result, now=at(DATES[1], 18)
    )
    for step in (
        lambda: services.match_confirm(match=match, user=both, now=at(DATES[1], 19)),
        lambda: services.match_dispute(match=match, user=both, reason="x", now=at(DATES[1], 19)),
    ):
        with pytest.raises(LeagueRefused) as caught:
            step()
        assert caught.value.message == (
            "You entered this result yourself: another captain of Donaustadt 3 confirms or disputes it, "
            "or the league director decides."
        )
    match.refresh_from_db()
    assert (match.status, match.confirmed_by) == (MatchStatus.ENTERED, None)
    # The other captain of Donaustadt 3 confirms it.
    services.match_confirm(match=match, user=league.captains["Donaustadt 3"], now=at(DATES[1], 20))
    match.refresh_from_db()
    assert (match.status, match.confirmed_by) == (MatchStatus.CONFIRMED, league.captains["Donaustadt 3"])


def test_a_match_without_any_lineup_is_not_decided_as_a_draw(league):
    match = league.match("Favoriten 1", 1)
    with pytest.raises(LeagueRefused) as caught:
        services.match_decide(
            match=match, user=league.director, reason="Niemand angetreten", record=game_record_result
        )
    assert caught.value.message == "Neither team has a lineup: name the team that did not appear."
    match.refresh_from_db()
    assert (match.status, match.decided_at) == (MatchStatus.OPEN, None)
    # Naming the team that did not appear decides it: it loses every board.
    services.match_decide(
        match=match,
        user=league.director,
        reason="Hietzing nicht angetreten",
        record=game_record_result,
        absent=Side.AWAY,
        now=at(DATES[0], 20),
    )
    assert score(match) == (4.0, 0.0, ["+–−", "+–−", "+–−", "+–−"])
    from clubrating.leagues.selectors_public import division_data

    rows = {
        row.team.name: (row.match_points, row.board_points)
        for row in division_data(division=league.first).table
    }
    assert (rows["Favoriten 1"], rows["Hietzing 1"]) == ((2, 4.0), (0, 0.0))


def test_the_entered_step_follows_the_board_results_it_completes_in_the_history(
    league, lined_up, monkeypatch
):
    from django.utils import timezone as tz

    real = tz.now
    offset = at(DATES[0], 18) - real()  # a running clock, at 18:00 on the day of round 1
    monkeypatch.setattr("django.utils.timezone.now", lambda: real() + offset)
    match = services.match_results_enter(
        match=lined_up,
        results={1: Result.WHITE_WINS, 2: Result.DRAW, 3: Result.BLACK_WINS},
        user=league.captains["Donaustadt 1"],
        record=game_record_result,
    )
    entered = MatchEvent.objects.get(match=match, kind="entered").at
    changes = ResultChange.objects.filter(game__team_match=lined_up.match).values_list(
        "changed_at", flat=True
    )
    assert len(changes) == 3 and max(changes) <= entered == match.entered_at
