"""One reading of a match: every result entered on every board, the home player with White or
with Black, from the home side; the game stores it by colour, and the captain's card, the result
form, the public card, the match report, its PDF and the API read it back the same way."""

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.leagues.models import MatchStatus
from clubrating.tournaments.models import Result
from tests.factories import ClubFactory
from tests.leagues.conftest import DATES, at, submit

pytestmark = pytest.mark.usefixtures("english")

# The home side's reading of each result: what the captain clicks, what the cards show, and the
# game's result by colour when the home player has White and when he has Black.
READINGS = [
    ("1-0", "1–0", (1.0, 0.0), Result.WHITE_WINS, Result.BLACK_WINS),
    ("1/2", "½–½", (0.5, 0.5), Result.DRAW, Result.DRAW),
    ("0-1", "0–1", (0.0, 1.0), Result.BLACK_WINS, Result.WHITE_WINS),
    ("+-", "+–−", (1.0, 0.0), Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN),
    ("-+", "−–+", (0.0, 1.0), Result.BLACK_FORFEIT_WIN, Result.WHITE_FORFEIT_WIN),
    ("--", "−–−", (0.0, 0.0), Result.DOUBLE_FORFEIT, Result.DOUBLE_FORFEIT),
]


def client_for(user=None) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        client.force_login(user)
    return client


def board_cells(html: str, css: str) -> list[str]:
    return re.findall(rf'class="[^"]*{css}[^"]*">([^<]*)<', html)


def test_every_result_on_every_board_colour_reads_the_same_on_every_page(league, monkeypatch):
    ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True, public_tournaments=True)
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    assert match.match.home_team == league.teams["Donaustadt 1"].team
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 18))
    director = client_for(league.director)
    home_captain = client_for(league.captains["Donaustadt 1"])
    visitor = client_for()
    games = {g.board: g for g in match.match.games.select_related("white")}
    home_ids = {p.pk for p in league.players["Donaustadt"]}
    home_white = {board: games[board].white_id in home_ids for board in range(1, 5)}
    assert home_white == {1: True, 2: False, 3: True, 4: False}  # Black on boards 2 and 4
    previous = ""
    for entered, shown, points, by_white, by_black in READINGS:
        response = director.post(
            reverse("leagues:match_results", args=[match.pk]),
            {**{f"board_{b}": entered for b in range(1, 5)}, **{f"seen_{b}": previous for b in range(1, 5)}},
        )
        assert response.status_code == 302, entered
        previous = entered
        stored = dict(match.match.games.values_list("board", "result"))
        assert stored == {1: by_white, 2: by_black, 3: by_white, 4: by_black}, entered
        total = (points[0] * 4, points[1] * 4)

        # The captain's match card and its result form (the home captain may still correct it).
        page = home_captain.get(reverse("leagues:match", args=[match.pk])).content.decode()
        assert board_cells(page, "league-board-result") == [shown] * 4, entered
        checked = re.findall(r'name="board_(\d)" value="([^"]*)"[^>]*checked', page)
        assert checked == [(str(b), entered) for b in range(1, 5)], entered
        assert f'data-home="{total[0]:g}" data-away="{total[1]:g}"' in page.replace(".0\"", "\""), entered

        # The public card, the match report and its PDF.
        card = visitor.get(reverse("leagues:public_match", args=[match.pk])).content.decode()
        assert re.findall(r'<td class="text-center text-nowrap fw-bold">([^<]*)</td>', card) == [shown] * 4
        report = visitor.get(reverse("leagues:match_report", args=[match.pk])).content.decode()
        assert re.findall(r'<td class="num">([^<0-9][^<]*|[01]–[01]|)</td>', report) == [shown] * 4
        pdf = visitor.get(reverse("leagues:match_report", args=[match.pk]) + "?pdf=1")
        assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"

        # The API: the board from the home side, the team scores home first.
        api = visitor.get(f"/api/v1/tournaments/{league.first.tournament_id}/matches").json()
        (played,) = [m for m in api["matches"] if m["id"] == match.pk]
        assert [(b["board"], b["result"], b["home_white"]) for b in played["boards"]] == [
            (b, entered, home_white[b]) for b in range(1, 5)
        ], entered
        assert (played["home_points"], played["away_points"], played["status"]) == (*total, "entered")
        assert [(b["home_points"], b["away_points"]) for b in played["boards"]] == [points] * 4
    match.refresh_from_db()
    assert match.status == MatchStatus.ENTERED


def test_the_history_reads_a_board_from_the_home_side(league, monkeypatch):
    submit(league, "Donaustadt 1", 1, [1, 2])
    submit(league, "Ottakring 1", 1, [1, 2])
    match = league.match("Donaustadt 1", 1)
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 18))
    home = client_for(league.captains["Donaustadt 1"])
    home.post(reverse("leagues:match_results", args=[match.pk]), {"board_2": "1-0", "seen_2": ""})
    assert match.match.games.get(board=2).result == Result.BLACK_WINS  # the home player has Black
    page = home.get(reverse("leagues:match", args=[match.pk])).content.decode()
    member = league.captains["Donaustadt 1"]
    assert f"Board 2: — → 1-0 · {member.get_username()}" in page


def test_the_history_names_a_captain_by_his_members_name(league, monkeypatch):
    captain = league.captains["Donaustadt 1"]
    player = league.players["Donaustadt"][0]
    player.user = captain
    player.save()
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0] - datetime.timedelta(days=2), 12))
    submit(league, "Donaustadt 1", 1, [1, 2])
    page = client_for(captain).get(reverse("leagues:match", args=[league.match("Donaustadt 1", 1).pk]))
    assert f"lineup submitted · Donaustadt 1 · {player.full_name}" in page.content.decode()


def test_the_apis_round_groups_a_divisions_boards_by_match_home_side_first(league, monkeypatch):
    from tests.leagues.played import play

    ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True, public_tournaments=True)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 20))
    api = client_for().get(f"/api/v1/tournaments/{league.first.tournament_id}/rounds/1").json()
    assert api["number"] == 1
    matches = {(m["home_team"], m["away_team"]): m for m in api["matches"]}
    assert set(matches) == {("Donaustadt 1", "Ottakring 1"), ("Favoriten 1", "Hietzing 1")}
    played = matches[("Donaustadt 1", "Ottakring 1")]
    assert (played["round"], played["status"], played["home_points"], played["away_points"]) == (
        1, "confirmed", 2.5, 1.5)
    # Won, drawn, lost from the home side; board 4 left empty by Ottakring: won by forfeit.
    assert [(b["board"], b["home_player"], b["away_player"], b["result"], b["home_points"])
            for b in played["boards"]] == [
        (1, "Spieler1, Don", "Spieler1, Ott", "1-0", 1.0),
        (2, "Spieler2, Don", "Spieler2, Ott", "1/2", 0.5),
        (3, "Spieler3, Don", "Spieler3, Ott", "0-1", 0.0),
        (4, "Spieler4, Don", None, "+-", 1.0),
    ]
    unplayed = matches[("Favoriten 1", "Hietzing 1")]
    # No lineups submitted (their deadline has passed): its four boards without players or results.
    assert (unplayed["status"], unplayed["home_points"], unplayed["lineups_visible"]) == ("open", None, True)
    assert [(b["board"], b["home_player"], b["away_player"], b["result"]) for b in unplayed["boards"]] == [
        (b, None, None, "") for b in range(1, 5)
    ]
