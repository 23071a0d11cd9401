"""The rules a season takes from a state federation's regulations: the limit on players of another
federation, the youth board, the rating-order tolerance and the result-entry deadline."""

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.leagues import services
from clubrating.leagues.errors import LeagueRefused
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.leagues.conftest import DATES, at, before_deadline, submit

pytestmark = pytest.mark.usefixtures("english")


def _rules(league, **rules):
    for name, value in rules.items():
        setattr(league.season, name, value)
    league.season.save()


def _refusal(league, ranks, ratings=None) -> list[str]:
    with pytest.raises(services.LineupRefused) as refused:
        submit_with(league, ranks, ratings)
    return refused.value.problems


def submit_with(league, ranks, ratings=None):
    players = league.players["Donaustadt"]
    return services.lineup_submit(
        match=league.match("Donaustadt 1", 1),
        team=league.teams["Donaustadt 1"],
        members=[players[rank - 1] for rank in ranks],
        user=league.captains["Donaustadt 1"],
        now=before_deadline(1),
        ratings=ratings,
    )


def test_no_more_players_of_another_federation_than_the_season_allows(league):
    _rules(league, foreign_limit=1)
    players = league.players["Donaustadt"]
    for player in players[:2]:
        player.federation = "GER"
        player.save()
    assert _refusal(league, [1, 2, 3, 4]) == [
        f"2 players of another federation are lined up ({players[0].full_name}, {players[1].full_name}); "
        "at most 1 may play."
    ]
    assert len(submit_with(league, [1, 3, 4])) == 3


def test_the_youth_board_takes_a_young_player(league):
    _rules(league, youth_board=4, youth_max_age=18)  # season 2026/27: born in 2008 or later
    players = league.players["Donaustadt"]
    players[3].birth_year = 2007
    players[3].save()
    assert _refusal(league, [1, 2, 3, 4]) == [
        f"Board 4 is the youth board: {players[3].full_name} is not born in 2008 or later."
    ]
    players[3].birth_year = 2008
    players[3].save()
    assert len(submit_with(league, [1, 2, 3, 4])) == 4


def test_no_player_below_one_rated_more_than_the_tolerance_lower(league):
    _rules(league, rating_tolerance=100)
    players = league.players["Donaustadt"]
    ratings = {players[0].pk: 1900, players[1].pk: 1800, players[2].pk: 1901, players[3].pk: 1700}
    assert _refusal(league, [1, 2, 3, 4], ratings) == [
        f"Board 3: {players[2].full_name} (1901) may not sit below {players[1].full_name} (1800, board 2): "
        "more than 100 points lower."
    ]
    ratings[players[2].pk] = 1900
    assert len(submit_with(league, [1, 2, 3, 4], ratings)) == 4


def test_a_result_entered_after_its_deadline_is_flagged_and_the_captain_reminded(league, monkeypatch):
    _rules(league, result_deadline_hours=28)  # Sunday 14:00 → Monday 18:00
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    assert match.result_due(league.season) == at(DATES[0] + datetime.timedelta(days=1), 18)
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 20))
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.captains["Donaustadt 1"])
    page = client.get(reverse("leagues:captain_home")).content.decode()
    assert "Enter the result by 2026-10-05 18:00" in page
    late = at(DATES[0] + datetime.timedelta(days=1), 18, 1)
    monkeypatch.setattr("django.utils.timezone.now", lambda: late)
    services.match_results_enter(
        match=match,
        results={b: Result.DRAW for b in range(1, 5)},
        user=league.captains["Donaustadt 1"],
        record=game_record_result,
        now=late,
    )
    match.refresh_from_db()
    assert match.entered_late(league.season)
    director = Client()
    director.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    director.force_login(league.director)
    round_page = director.get(reverse("leagues:director_round", args=[league.first.pk, 1])).content.decode()
    assert round_page.count("league-late-entry") == 1


def test_the_rules_are_set_on_the_setup_page_and_checked(league):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.director)
    data = {
        "step": "rules",
        "start_date": "2026-09-01",
        "end_date": "2027-06-30",
        "match_points_win": "2",
        "match_points_draw": "1",
        "match_points_loss": "0",
        "lineup_deadline_hours": "24",
        "fixing_games": "2",
        "match_start_time": "14:00",
        "criterion_1": "MP",
        "criterion_2": "BP",
        "foreign_limit": "2",
        "youth_board": "6",
        "youth_max_age": "16",
        "rating_tolerance": "150",
        "result_deadline_hours": "28",
    }
    response = client.post(reverse("leagues:setup", args=[league.season.pk]), data)
    assert response.status_code == 302
    league.season.refresh_from_db()
    assert (
        league.season.foreign_limit,
        league.season.youth_board,
        league.season.youth_max_age,
        league.season.rating_tolerance,
        league.season.result_deadline_hours,
    ) == (2, 6, 16, 150, 28)
    with pytest.raises(LeagueRefused):
        services.season_rules_update(
            season=league.season,
            user=league.director,
            start_date=datetime.date(2026, 9, 1),
            end_date=None,
            match_points=(2, 1, 0),
            standings_criteria=["MP"],
            lineup_deadline_hours=24,
            fixing_games=2,
            match_start_time=datetime.time(14, 0),
            federation_rules={"youth_board": 0},
        )


@pytest.fixture
def played(league):
    from tests.leagues.played import play_landesliga

    play_landesliga(league)
    return league


def test_an_ineligible_player_loses_his_board_those_below_and_the_deduction(played, monkeypatch):
    league = played
    _rules(league, ineligible_boards_below=True, ineligible_deduction=1)
    match = league.match("Donaustadt 1", 1)  # 2.5 : 1.5 (W, D, L, and board 4 won by forfeit)
    games = dict(match.match.games.values_list("board", "result"))
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(league.captains["Ottakring 1"])
    url = reverse("leagues:match_ineligible", args=[match.pk])
    assert client.post(url, {"side": "home", "board": 2, "reason": "x"}).status_code == 403
    client.force_login(league.director)
    response = client.post(url, {"side": "home", "board": 2, "reason": "Brett 2 nicht gemeldet"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.ineligible_side, match.ineligible_board) == ("decided", "home", 2)
    # Boards 2-4 lost (1 : 3), then 1 board point off the home team's 1: 0 : 3.
    page = client.get(reverse("leagues:public_match", args=[match.pk])).content.decode()
    assert "0.0 : 3.0" in page
    assert dict(match.match.games.values_list("board", "result")) == games  # rated as played
    table = client.get(reverse("leagues:division", args=[league.first.pk])).content.decode()
    row = table.split('<tr data-team="Donaustadt 1">')[1].split("</tr>")[0]
    assert re.findall(r'<td class="num fw-bold">([^<]*)</td>', row) == ["3"]  # 0 + 2 + 1 match points
    with pytest.raises(LeagueRefused):
        services.match_ineligible(
            match=league.match("Donaustadt 1", 2), side="home", board=5, user=league.director, reason="x"
        )


def test_the_rating_order_tolerance_is_checked_with_the_ratings_of_the_match_day_read_by_the_service(league):
    from ratings.services.lists import EntryData, list_publish
    from tests.leagues.played import rate_everyone

    _rules(league, rating_tolerance=30)
    pool = rate_everyone(league)  # 2000, 1900, 1800, 1700 by roster rank from 1 January
    players = league.players["Donaustadt"]
    # From 1 September the third player is rated 1950: 50 more than the second's 1900.
    entries = {member.pk: EntryData(rating=rating, games_count=40)
               for member, rating in zip(players[:4], (2000, 1900, 1950, 1700), strict=True)}
    list_publish(pool=pool, entries=entries, kind="start", valid_from=datetime.date(2026, 9, 1))
    assert _refusal(league, [1, 2, 3, 4]) == [
        f"Board 3: {players[2].full_name} (1950) may not sit below {players[1].full_name} (1900, board 2): "
        "more than 30 points lower."
    ]
