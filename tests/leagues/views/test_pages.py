"""The captains' and the director's pages: who sees what, and each step through a form."""

import datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.leagues.models import MatchStatus
from clubrating.tournaments.models import Result
from tests.leagues.conftest import DATES, at, submit

pytestmark = pytest.mark.usefixtures("english")


def client_for(user) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


@pytest.fixture
def now(monkeypatch):
    """The pages' clock: set ``now.value``."""

    class Clock:
        value = at(DATES[0] - datetime.timedelta(days=2), 12)

    monkeypatch.setattr("django.utils.timezone.now", lambda: Clock.value)
    return Clock


def test_the_captain_submits_a_lineup_and_the_opponent_sees_it_after_the_deadline(league, now):
    match = league.match("Donaustadt 1", 1)
    home = client_for(league.captains["Donaustadt 1"])
    page = home.get(reverse("leagues:lineup", args=[match.pk, league.teams["Donaustadt 1"].pk]))
    assert page.status_code == 200
    players = league.players["Donaustadt"]
    response = home.post(
        reverse("leagues:lineup", args=[match.pk, league.teams["Donaustadt 1"].pk]),
        {"board_1": players[0].pk, "board_2": players[2].pk, "board_3": players[1].pk},
    )
    assert response.status_code == 400
    assert (
        "Board 3: Spieler2, Don (rank 2) may not sit below Spieler3, Don (rank 3, board 2): the board order "
        "follows the roster."
    ) in response.content.decode()
    response = home.post(
        reverse("leagues:lineup", args=[match.pk, league.teams["Donaustadt 1"].pk]),
        {f"board_{i + 1}": players[i].pk for i in range(4)},
    )
    assert response.status_code == 302
    away = client_for(league.captains["Ottakring 1"])
    assert "Spieler1, Don" not in away.get(reverse("leagues:match", args=[match.pk])).content.decode()
    now.value = at(DATES[0] - datetime.timedelta(days=1), 14)
    assert "Spieler1, Don" in away.get(reverse("leagues:match", args=[match.pk])).content.decode()


def test_others_may_not_see_a_captains_match_page(league, now):
    match = league.match("Donaustadt 1", 1)
    assert (
        client_for(league.captains["Favoriten 1"]).get(reverse("leagues:match", args=[match.pk])).status_code
        == 403
    )
    assert Client().get(reverse("leagues:match", args=[match.pk])).status_code == 302
    director = reverse("leagues:director", args=[league.season.pk])
    assert client_for(league.captains["Favoriten 1"]).get(director).status_code == 403


def test_results_confirmation_dispute_and_decision_through_the_pages(league, now):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    now.value = at(DATES[0], 18)
    home = client_for(league.captains["Donaustadt 1"])
    url = reverse("leagues:match_results", args=[match.pk])
    assert (
        home.post(
            url, {"board_1": "1-0", "board_2": "1/2", "board_3": "0-1", "board_4": "1/2", "absent": ""}
        ).status_code
        == 302
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.ENTERED
    away = client_for(league.captains["Ottakring 1"])
    assert (
        away.post(
            reverse("leagues:match_dispute", args=[match.pk]), {"reason": "Brett 4 war 0-1"}
        ).status_code
        == 302
    )
    director = client_for(league.director)
    queue = director.get(reverse("leagues:director", args=[league.season.pk])).content.decode()
    assert "Brett 4 war 0-1" in queue
    assert (
        director.post(
            reverse("leagues:match_decide", args=[match.pk]),
            {
                "board_1": "1-0",
                "board_2": "1/2",
                "board_3": "0-1",
                # Read from the home player's side: he has Black on board 4 and won.
                "board_4": "1-0",
                "absent": "",
                "reason": "Partieformular",
            },
        ).status_code
        == 302
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    assert match.match.games.get(board=4).result == Result.BLACK_WINS
    page = home.get(reverse("leagues:match", args=[match.pk])).content.decode()
    assert "Partieformular" in page and "Board 4: ½-½ → 1-0" in page


def test_the_captain_home_lists_his_teams_matches(league, now):
    page = client_for(league.captains["Donaustadt 2"]).get(reverse("leagues:captain_home")).content.decode()
    assert page.count("league-match-line") == 3
    assert "Donaustadt 2 – Donaustadt 3" in page


def test_the_match_page_reads_a_fixed_number_of_queries(league, now, django_assert_max_num_queries):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    now.value = at(DATES[0], 18)
    director = client_for(league.director)
    director.get(reverse("leagues:match", args=[match.pk]))
    with django_assert_max_num_queries(14):
        assert director.get(reverse("leagues:match", args=[match.pk])).status_code == 200


def test_the_director_registers_a_player_late_on_the_roster_page(league, now):
    from clubrating.leagues.models import RosterChange
    from tests.factories import MemberFactory

    club = league.teams["Donaustadt 1"].club
    late = MemberFactory(club=club, first_name="Lena", last_name="Spät")
    url = reverse("leagues:roster", args=[league.season.pk, club.pk])
    captain = client_for(league.captains["Donaustadt 2"])
    page = captain.get(url).content.decode()
    assert page.count("<tr>") == 13 and "Register a player late" not in page
    assert captain.post(url, {}).status_code == 403
    assert client_for(league.captains["Ottakring 1"]).get(url).status_code == 403
    director = client_for(league.director)
    response = director.post(
        url,
        {
            "member": late.pk,
            "team": league.teams["Donaustadt 2"].pk,
            "on": "2026-10-10",
            "reason": "Vereinswechsel",
        },
    )
    assert response.status_code == 302
    change = RosterChange.objects.get()
    assert (change.member, change.new_rank, change.valid_from) == (late, 9, datetime.date(2026, 10, 10))
    page = captain.get(url).content.decode()
    assert "Spät, Lena" in page and "Vereinswechsel" in page


def test_two_people_entering_boards_at_once_do_not_undo_each_others_results(league, now):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    now.value = at(DATES[0], 18)
    home = client_for(league.captains["Donaustadt 1"])
    page = home.get(reverse("leagues:match", args=[match.pk])).content.decode()
    assert '<input type="hidden" name="seen_1" value="">' in page
    # Meanwhile the director saves board 1 from his page.
    director = client_for(league.director)
    director.post(reverse("leagues:match_results", args=[match.pk]), {"board_1": "1-0", "seen_1": ""})
    # The captain's page still shows board 1 empty; he saves board 2 only.
    url = reverse("leagues:match_results", args=[match.pk])
    seen = {f"seen_{board}": "" for board in (1, 2, 3, 4)}
    assert home.post(url, {**seen, "board_2": "1/2", "absent": ""}).status_code == 302
    games = {game.board: game.result for game in match.match.games.all()}
    assert games == {1: Result.WHITE_WINS, 2: Result.DRAW, 3: "", 4: ""}
    # A board he changes himself that was saved meanwhile is refused, and nothing of his is saved.
    response = home.post(url, {**seen, "board_1": "0-1", "board_3": "0-1", "absent": ""}, follow=True)
    assert "Board 1: Another official has saved this board meanwhile: it now holds 1-0." in (
        response.content.decode()
    )
    games = {game.board: game.result for game in match.match.games.all()}
    assert games == {1: Result.WHITE_WINS, 2: Result.DRAW, 3: "", 4: ""}


def test_a_captain_of_both_teams_is_not_offered_to_confirm_his_own_entry(league, now):
    from clubrating.leagues import services

    both = league.captains["Donaustadt 2"]
    services.captain_add(team=league.teams["Donaustadt 3"], user=both)
    submit(league, "Donaustadt 2", 2, [5, 6, 7, 8])
    submit(league, "Donaustadt 3", 2, [9, 10, 11, 12])
    match = league.match("Donaustadt 2", 2)
    now.value = at(DATES[1], 18)
    client = client_for(both)
    url = reverse("leagues:match_results", args=[match.pk])
    seen = {f"seen_{board}": "" for board in (1, 2, 3, 4)}
    assert client.post(url, {**seen, **{f"board_{b}": "1/2" for b in (1, 2, 3, 4)}}).status_code == 302
    page = client.get(reverse("leagues:match", args=[match.pk])).content.decode()
    assert "league-confirm" not in page
    other = client_for(league.captains["Donaustadt 3"]).get(reverse("leagues:match", args=[match.pk]))
    assert "league-confirm" in other.content.decode()


def test_a_lineup_posted_for_a_team_of_another_match_is_refused_by_name_and_changes_nothing(league, now):
    from clubrating.tournaments.models import LineupEntry

    match = league.match("Donaustadt 1", 1)
    director = client_for(league.director)
    players = league.players["Meidling"]
    response = director.post(
        reverse("leagues:lineup", args=[match.pk, league.teams["Meidling 1"].pk]),
        {f"board_{i + 1}": players[i].pk for i in range(4)},
        follow=True,
    )
    assert response.redirect_chain == [(reverse("leagues:match", args=[match.pk]), 302)]
    assert "Meidling 1 does not play in this match." in response.content.decode()
    assert not LineupEntry.objects.exists()
    # A captain of the other team of the match is refused as before.
    captain = client_for(league.captains["Ottakring 1"])
    assert (
        captain.get(reverse("leagues:lineup", args=[match.pk, league.teams["Donaustadt 1"].pk])).status_code
        == 403
    )


def test_before_the_deadline_the_captains_page_does_not_tell_the_opponents_empty_boards(league, now):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, None])  # board 4 left empty
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    page = client_for(league.captains["Ottakring 1"]).get(reverse("leagues:match", args=[match.pk]))
    html = page.content.decode()
    assert html.count("hidden until the deadline") == 4
    assert 'class="colour"' not in html  # boards 1-3 have games, board 4 none: all four look alike
    now.value = at(DATES[0] - datetime.timedelta(days=1), 14)
    html = client_for(league.captains["Ottakring 1"]).get(reverse("leagues:match", args=[match.pk])).content
    assert html.decode().count('class="colour"') == 6


def test_a_match_without_any_result_shows_no_score_yet(league, now):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    now.value = at(DATES[0], 18)
    home = client_for(league.captains["Donaustadt 1"])

    def score() -> str:
        page = home.get(reverse("leagues:match", args=[match.pk])).content.decode()
        return page.split('class="fs-2 fw-bold text-nowrap league-score"')[1].split(">", 1)[1].split("<")[0]

    assert score() == "– : –"  # not "0 : 0", a score neither team has
    home.post(reverse("leagues:match_results", args=[match.pk]),
              {"board_1": "1-0", "board_2": "1/2", "board_3": "0-1", "board_4": "1/2", "absent": ""})
    assert score() == "2.0 : 2.0"  # (board points with one decimal, as the table)


def test_the_lineup_page_checks_the_lineup_while_the_captain_chooses_and_saves_nothing(league, now):
    from clubrating.tournaments.models import LineupEntry

    match = league.match("Donaustadt 1", 1)
    team = league.teams["Donaustadt 1"]
    home = client_for(league.captains["Donaustadt 1"])
    check = reverse("leagues:lineup_check", args=[match.pk, team.pk])
    page = home.get(reverse("leagues:lineup", args=[match.pk, team.pk])).content.decode()
    assert f'hx-post="{check}" hx-trigger="change" hx-target="#lineup-check"' in page
    assert '<div id="lineup-check" aria-live="polite"></div>' in page
    players = league.players["Donaustadt"]
    # Board 2 empty, boards 3 and 4 out of the roster's order: both named, nothing saved.
    chosen = {"board_1": players[0].pk, "board_3": players[3].pk, "board_4": players[2].pk}
    fragment = home.post(check, chosen, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment
    assert "This lineup would be refused:" in fragment
    assert ("<li>Board 4: Spieler3, Don (rank 3) may not sit below Spieler4, Don (rank 4, board 3): the "
            "board order follows the roster.</li>") in fragment
    assert "Board 2 is empty although boards below it have players" in fragment
    assert not LineupEntry.objects.filter(match=match.match).exists()
    fine = home.post(check, {f"board_{i + 1}": players[i].pk for i in range(4)}).content.decode()
    assert "This lineup keeps the season's rules." in fine and "refused" not in fine
    # Another team's captain may not ask.
    other = client_for(league.captains["Favoriten 1"])
    assert other.post(check, {"board_1": players[0].pk}).status_code == 403
