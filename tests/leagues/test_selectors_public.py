"""The division's table, cross table, rounds and players' statistics read from the database,
with forfeits: an empty board and a team that did not appear."""

import datetime

import pytest

from clubrating.leagues import services
from clubrating.leagues.models import MatchStatus
from clubrating.leagues.selectors_public import division_data
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.leagues.conftest import DATES, at, submit
from tests.leagues.played import play_landesliga

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def played(league):
    play_landesliga(league)
    return league


def names(rows):
    return [
        (r.rank, r.team.name, r.match_points, r.board_points, r.berlin, r.won, r.drawn, r.lost) for r in rows
    ]


def test_the_table_counts_the_empty_board_and_the_absent_team_as_lost_boards(
    played, django_assert_max_num_queries
):
    with django_assert_max_num_queries(5):
        data = division_data(division=played.first)
    assert names(data.table) == [
        (1, "Donaustadt 1", 5, 7.0, 19.0, 2, 1, 0),
        (2, "Hietzing 1", 4, 8.0, 22.0, 1, 2, 0),
        (3, "Favoriten 1", 3, 6.0, 11.5, 1, 1, 1),
        (4, "Ottakring 1", 0, 3.0, 7.5, 0, 0, 3),
    ]
    by_name = {team.name: team for team in data.teams}
    cross = data.cross
    assert cross[(by_name["Hietzing 1"], by_name["Ottakring 1"])] == [4.0]
    assert cross[(by_name["Ottakring 1"], by_name["Hietzing 1"])] == [0.0]
    assert cross[(by_name["Donaustadt 1"], by_name["Ottakring 1"])] == [2.5]
    assert [[None if cell is None else cell for cell in cells] for _row, cells in data.cross_rows()] == [
        [None, [2.0], [2.5], [2.5]],
        [[2.0], None, [2.0], [4.0]],
        [[1.5], [2.0], None, [2.5]],
        [[1.5], [0.0], [1.5], None],
    ]


def test_rounds_with_match_cards_and_a_match_without_result(league):
    data = division_data(division=league.first)
    assert [(n, len(matches)) for n, _d, matches in data.rounds] == [(1, 2), (2, 2), (3, 2)]
    first = data.rounds[0][2][0]
    assert (first.home.name, first.away.name, first.result) == ("Donaustadt 1", "Ottakring 1", None)
    assert [row.match_points for row in data.table] == [0, 0, 0, 0]
    assert [row.rank for row in data.table] == [1, 1, 1, 1]


def test_match_cards_of_the_forfeits(played):
    data = division_data(division=played.first)
    r1 = data.rounds[0][2][0]
    assert [b.result for b in r1.score.boards] == ["1–0", "½–½", "0–1", "+–−"]
    assert r1.result.boards == ((1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 0.0))
    r2 = data.rounds[1][2][0]
    assert (r2.home.name, r2.league.status, r2.league.absent) == ("Ottakring 1", MatchStatus.DECIDED, "home")
    assert (r2.home_points, r2.away_points) == (0.0, 4.0)


def test_players_score_per_board_and_performance(played):
    # Every game rated with white 2000, black 1900.
    data = division_data(
        division=played.first, players=True, ratings=lambda games: {g[0]: (2000, 1900) for g in games}
    )
    lines = {(line.member.last_name, line.team.name): line for line in data.players}
    don4 = lines[("Spieler4", "Donaustadt 1")]
    assert (don4.games, don4.points, don4.boards, don4.opponents) == (3, 2.0, {4: [2.0, 3]}, [2000, 1900])
    hie1 = lines[("Spieler1", "Hietzing 1")]
    # Round 2 a forfeit win (Ottakring absent): in the score, not in the performance.
    assert (hie1.games, hie1.points, hie1.boards) == (3, 2.5, {1: [2.5, 3]})
    assert ("Spieler1", "Ottakring 1") in lines
    assert lines[("Spieler1", "Ottakring 1")].games == 2
    don1 = lines[("Spieler1", "Donaustadt 1")]
    # White at home in rounds 1 and 2 (against 1900), black away in round 3 (against 2000):
    # 2.5 of 3, 1933.33 + dp(0.83) = 1933.33 + 273.
    assert (don1.boards, don1.opponents, don1.rated_points, don1.performance) == (
        {1: [2.5, 3]},
        [1900, 1900, 2000],
        2.5,
        2206,
    )
    assert (hie1.opponents, hie1.rated_points) == ([2000, 1900], 1.5)
    best = {
        board: [(e.line.member.last_name, e.line.team.name, e.points, e.games) for e in entries]
        for board, entries in data.best.items()
    }
    assert best[1] == [("Spieler1", "Donaustadt 1", 2.5, 3), ("Spieler1", "Hietzing 1", 2.5, 3)]
    assert best[4] == [("Spieler4", "Favoriten 1", 2.5, 3)]


def test_the_ratings_of_a_moved_match_are_those_of_the_day_it_is_played(league):
    # Donaustadt 1 – Ottakring 1 of round 1 (4 October) is moved to 9 October and played then.
    match = league.match("Donaustadt 1", 1)
    services.match_reschedule(match=match, starts_at=at(datetime.date(2026, 10, 9), 19), user=league.director)
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4], now=at(DATES[0], 10))
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4], now=at(DATES[0], 10))
    services.match_results_enter(
        match=match,
        results={board: Result.DRAW for board in (1, 2, 3, 4)},
        user=league.captains["Donaustadt 1"],
        record=game_record_result,
        now=at(datetime.date(2026, 10, 9), 23),
    )
    asked = []

    def ratings(games):
        asked.extend(games)
        return {}

    division_data(division=league.first, players=True, ratings=ratings)
    assert {day for *_ids, day in asked} == {datetime.date(2026, 10, 9)}
    assert len(asked) == 4
