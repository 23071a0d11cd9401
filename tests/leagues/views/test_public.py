"""The league's public pages: table and cross table, rounds with match cards and forecast,
players' statistics with Rp, the match report (print and PDF), the exports and the TRF file."""

import csv
import datetime
import io
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubrating.interchange.formats.trf import parse_trf
from clubrating.interchange.formats.trf.teams import (
    TrfForfeitMatch,
    TrfLineup,
    TrfTeam,
    team_records,
)
from tests.factories import ClubFactory
from tests.leagues.conftest import DATES, at, submit
from tests.leagues.played import play_landesliga, rate_everyone

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def public(db):
    return ClubFactory(
        name="Schachklub Heimat", short_name="SK Heimat", is_home=True, public_tournaments=True
    )


@pytest.fixture
def played(league, public):
    rate_everyone(league)  # before the games: each is rated on entry
    play_landesliga(league)
    return league


@pytest.fixture
def visitor():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_table_page_shows_the_criteria_and_the_cross_table(
    played, visitor, django_assert_max_num_queries
):
    url = reverse("leagues:division", args=[played.first.pk])
    # The table's own twelve and its version (the rows of the league and of its tournament, the
    # latest change of a member and a club: tournaments/views/_cache.py), whatever the season's size.
    with django_assert_max_num_queries(23):
        page = visitor.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    rows = html.split('<tr data-team="')[1:]
    assert [row.split('"', 1)[0] for row in rows] == [
        "Donaustadt 1",
        "Hietzing 1",
        "Favoriten 1",
        "Ottakring 1",
    ]
    # Rank, team, matches, won, drawn, lost, MP, BP, BW, DE (not applied: no tie).
    cells = [
        re.sub(r"<[^>]+>", "", cell.split("<td", 1)[-1].split(">", 1)[-1])
        for cell in rows[1].split("</tr>")[0].split("</td>")[:-1]
    ]
    assert cells == ["2", "Hietzing 1", "3", "1", "2", "0", "4", "8.0", "22.0", ""]
    assert "Cross table" in html
    assert "Berlin scoring" in html


def test_only_logged_in_users_when_tournaments_are_not_public(league, visitor):
    ClubFactory(name="Schachklub Heimat", is_home=True, public_tournaments=False)
    page = visitor.get(reverse("leagues:division", args=[league.first.pk]))
    assert page.status_code == 302


def test_the_rounds_page_shows_match_cards_and_the_forecast_once_the_lineups_are_visible(
    league, public, visitor, monkeypatch
):
    rate_everyone(league)
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    url = reverse("leagues:division_rounds", args=[league.first.pk]) + "?round=1"
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0] - datetime.timedelta(days=2), 12))
    html = visitor.get(url).content.decode()
    assert html.count("hidden until the deadline") == 16  # both matches, both sides, four boards
    assert "Forecast" not in html
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 13))
    html = visitor.get(url).content.decode()
    assert "hidden until the deadline" not in html
    # Equal ratings on every board.
    assert "Forecast 2.00 : 2.00" in html
    assert "Spieler1" in html


def test_the_players_page_shows_board_scores_and_the_performance(played, visitor):
    html = visitor.get(reverse("leagues:division_players", args=[played.first.pk])).content.decode()
    row = html.split("Spieler1, Don")[1].split("</tr>")[0]
    cells = [
        re.sub(r"<[^>]+>", "", cell.split("<td", 1)[-1].split(">", 1)[-1]) for cell in row.split("</td>")
    ]
    # Board 1: 2.5 of 3 against three 2000 opponents, the ratings they were rated with:
    # 2000 + dp(0.83) = 2273, resting on three rated games. On a phone the team is under the name.
    assert cells[1:-1] == ["Donaustadt 1", "2.5/3", "", "", "", "2.5", "3", "83", "2273 (3)"]
    assert cells[0] == "Donaustadt 1"  # under the name on a phone
    assert "Best board results" in html


def test_the_match_report_to_print_and_as_pdf(played, visitor):
    match = played.match("Donaustadt 1", 1)
    html = visitor.get(reverse("leagues:match_report", args=[match.pk])).content.decode()
    assert "Match report: Donaustadt 1 – Ottakring 1" in html
    assert "2.5 : 1.5" in html
    assert html.count('<div class="league-signature-line">') == 3
    assert "Captain of Ottakring 1" in html
    pdf = visitor.get(reverse("leagues:match_report", args=[match.pk]) + "?pdf=1")
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    card = visitor.get(reverse("leagues:public_match", args=[match.pk])).content.decode()
    assert "+–−" in card


def test_the_table_as_csv(played, visitor):
    response = visitor.get(reverse("leagues:division_export", args=[played.first.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0] == [
        "Rank",
        "Team",
        "Club",
        "Matches",
        "Won",
        "Drawn",
        "Lost",
        "Match points",
        "Board points",
        "Berlin scoring",
        "Direct encounter",
    ]
    assert rows[1] == ["1", "Donaustadt 1", "SK Donaustadt", "3", "2", "1", "0", "5", "7.0", "19.0", ""]
    assert rows[4] == ["4", "Ottakring 1", "SK Ottakring", "3", "0", "0", "3", "0", "3.0", "7.5", ""]


def test_the_api_serves_the_table_as_the_page_shows_it(played, visitor):
    division = played.first
    response = visitor.get(f"/api/v1/tournaments/{division.tournament_id}/teams")
    assert response.status_code == 200
    data = response.json()
    assert (data["tournament_id"], data["division_id"], data["criteria"]) == (
        division.tournament_id, division.pk, ["MP", "BP", "BW", "DE"])
    rows = [(r["rank"], r["name"], r["club"], r["played"], r["won"], r["drawn"], r["lost"], r["match_points"],
             r["board_points"], r["criteria"]) for r in data["rows"]]
    assert rows[0] == (1, "Donaustadt 1", "SK Donaustadt", 3, 2, 1, 0, 5, 7.0,
                       {"MP": 5, "BP": 7.0, "BW": 19.0, "DE": None})
    assert rows[1] == (2, "Hietzing 1", "SK Hietzing", 3, 1, 2, 0, 4, 8.0,
                       {"MP": 4, "BP": 8.0, "BW": 22.0, "DE": None})
    assert rows[3] == (4, "Ottakring 1", "SK Ottakring", 3, 0, 0, 3, 0, 3.0,
                       {"MP": 0, "BP": 3.0, "BW": 7.5, "DE": None})
    assert [r["team_id"] for r in data["rows"]] == [
        t.team_id for name in ("Donaustadt 1", "Hietzing 1", "Favoriten 1", "Ottakring 1")
        for t in division.teams.filter(team__name=name)]
    # An individual tournament has no teams.
    from tests.factories import TournamentFactory
    assert visitor.get(f"/api/v1/tournaments/{TournamentFactory().pk}/teams").status_code == 404


def test_the_print_layout_and_pdf_of_the_table(played, visitor):
    url = reverse("leagues:division_print", args=[played.first.pk])
    assert "Cross table" in visitor.get(url).content.decode()
    assert visitor.get(url + "?pdf=1").content.startswith(b"%PDF")


def test_the_trf_export_is_read_back_with_its_team_records(played, visitor):
    response = visitor.get(reverse("leagues:division_trf", args=[played.first.pk]))
    trf = parse_trf(response.content.decode())
    assert trf.teams_count == 4
    records = team_records(trf.extra_lines)
    by_rank = {p.start_rank: p.name for p in trf.players}
    assert [(t.number, t.name, t.match_points, t.game_points, t.rank) for t in records.teams] == [
        (1, "Donaustadt 1", 5.0, 7.0, 1),
        (2, "Favoriten 1", 3.0, 6.0, 3),
        (3, "Hietzing 1", 4.0, 8.0, 2),
        (4, "Ottakring 1", 0.0, 3.0, 4),
    ]
    # Each team's players in roster order.
    assert [by_rank[r] for r in records.teams[0].players] == [f"Spieler{n}, Don" for n in (1, 2, 3, 4)]
    first = records.lineups[:2]
    assert [(lu.round, lu.team, lu.opponent) for lu in first] == [(1, 1, 4), (1, 4, 1)]
    assert first[1].players[3] == 0  # Ottakring's empty board 4
    assert TrfForfeitMatch("-+", 2, 4, 3) in records.forfeits
    assert len(records.lineups) == 11  # six matches, Ottakring without a lineup in round 2
    # The games are the players' rounds: Donaustadt's board 1 won round 1 against Ottakring's.
    don1 = next(p for p in trf.players if p.start_rank == records.teams[0].players[0])
    assert [(g.round, g.result) for g in don1.results] == [(1, "1"), (2, "1"), (3, "=")]
    assert isinstance(records.teams[0], TrfTeam) and isinstance(first[0], TrfLineup)


def test_the_pages_in_german(played):
    client = Client()  # German unless the visitor switches
    html = client.get(reverse("leagues:division", args=[played.first.pk])).content.decode()
    assert "Kreuztabelle" in html
    assert "Mannschaftspunkte: 2 für einen gewonnenen Wettkampf" in html
    row = html.split('<tr data-team="Hietzing 1">')[1].split("</tr>")[0]
    assert [cell.rsplit(">", 1)[1] for cell in row.split("</td>")[:-1]][6:9] == ["4", "8,0", "22,0"]
    players = client.get(reverse("leagues:division_players", args=[played.first.pk])).content.decode()
    assert "Beste Brettergebnisse" in players
    assert "2,5/3" in players
    match = played.match("Donaustadt 1", 1)
    report = client.get(reverse("leagues:match_report", args=[match.pk])).content.decode()
    assert "Spielbericht: Donaustadt 1 – Ottakring 1" in report
    assert "2,5 : 1,5" in report
    assert "Mannschaftsführer von Ottakring 1" in report
    response = client.get(reverse("leagues:division_export", args=[played.first.pk, "csv"]))
    rows = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert rows[1] == "1;Donaustadt 1;SK Donaustadt;3;2;1;0;5;7,0;19,0;"


def test_the_table_polls_live_and_an_unchanged_table_is_not_sent_again(league, public, visitor, monkeypatch):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 15))
    url = reverse("leagues:division", args=[league.first.pk])
    html = visitor.get(url).content.decode()
    assert 'hx-trigger="every 10s"' in html
    version = html.split('data-version="')[1].split('"')[0]
    assert visitor.get(url, {"fragment": "1", "v": version}).status_code == 204
    fragment = visitor.get(url, {"fragment": "1", "v": "old"})
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert 'id="live-standings"' in text
    assert "<html" not in text  # the table alone, not the page


def test_the_forecast_reads_the_ratings_valid_on_the_match_day(league, public, visitor, monkeypatch):
    from ratings.services.lists import EntryData, list_publish

    pool = rate_everyone(league)  # equal on every board from 1 January 2026
    # A list valid from 10 October 2026 makes Donaustadt's players 400 points stronger.
    entries = {
        member.pk: EntryData(rating=2100 - 100 * rank + (400 if club == "Donaustadt" else 0), games_count=40)
        for club in ("Donaustadt", "Favoriten", "Hietzing", "Ottakring")
        for rank, member in enumerate(league.players[club][:4], start=1)
    }
    list_publish(pool=pool, entries=entries, kind="start", valid_from=datetime.date(2026, 10, 10))
    for number in (1, 2):
        submit(league, "Donaustadt 1", number, [1, 2, 3, 4])
        submit(league, league.opponent("Donaustadt 1", number), number, [1, 2, 3, 4])
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 13))
    url = reverse("leagues:division_rounds", args=[league.first.pk])
    # Round 1 on 4 October: the list of 1 January.
    assert "Forecast 2.00 : 2.00" in visitor.get(url + "?round=1").content.decode()
    # Round 2 on 18 October: the list of 10 October, 400 points more on every board: E(400) =
    # 0.9198 (docs/rules.md §1.1), 4 × 0.9198 = 3.68.
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[1], 13))
    assert "Forecast 3.68 : 0.32" in visitor.get(url + "?round=2").content.decode()


def test_a_lineup_before_its_deadline_shows_on_no_page_of_the_divisions_tournament(
    league, public, visitor, monkeypatch
):
    """The league's pages hide a lineup until its deadline; so do the tournament's pages, its API
    and the TRF files, which show the division's games and lineups as any team competition's."""
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    tournament = league.first.tournament
    game = league.match("Donaustadt 1", 1).match.games.get(board=1)
    pages = [
        reverse("tournaments:pairings", args=[tournament.pk]),  # the league's rounds
        reverse("tournaments:round", args=[tournament.pk, 1]),
        reverse("tournaments:team_matches", args=[tournament.pk]),
        reverse("tournaments:game", args=[game.pk]),
        f"/api/v1/tournaments/{tournament.pk}/rounds/1",
        f"/api/v1/tournaments/{tournament.pk}/pairings",
        reverse("interchange:tournament_trf", args=[tournament.pk]),
        reverse("leagues:division_trf", args=[league.first.pk]),
    ]

    def seen():
        found = []
        for url in pages:
            response = visitor.get(url, follow=True)
            assert response.status_code in (200, 404), url
            body = b"".join(response.streaming_content) if response.streaming else response.content
            text = body.decode()
            found.append(("Spieler1, Don" in text, "Spieler1, Ott" in text))
        return found

    deadline = DATES[0] - datetime.timedelta(days=1)  # 3 October, 14:00
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(deadline, 13, 59))
    assert seen() == [(False, False)] * len(pages)
    assert visitor.get(reverse("tournaments:game", args=[game.pk])).status_code == 404
    trf = visitor.get(reverse("leagues:division_trf", args=[league.first.pk])).content.decode()
    assert [line[:3] for line in trf.splitlines() if line[:3] in ("001", "300")] == []
    # The team competition's own table and matches are the league's pages.
    assert visitor.get(reverse("tournaments:team_standings", args=[tournament.pk])).url == reverse(
        "leagues:division", args=[league.first.pk]
    )
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(deadline, 14))
    assert seen() == [(True, True)] * len(pages)


def test_the_live_pages_see_a_confirmation_and_a_team_that_did_not_appear(
    league, public, visitor, monkeypatch
):
    from clubrating.leagues import services
    from clubrating.tournaments.models import Result
    from ratings.services import game_record_result

    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    submit(league, "Favoriten 1", 1, [1, 2, 3, 4])  # Hietzing does not appear
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(DATES[0], 19))
    match = league.match("Donaustadt 1", 1)
    services.match_results_enter(
        match=match,
        results={board: Result.DRAW for board in (1, 2, 3, 4)},
        user=league.captains["Donaustadt 1"],
        record=game_record_result,
    )
    rounds = reverse("leagues:division_rounds", args=[league.first.pk])
    table = reverse("leagues:division", args=[league.first.pk])

    def version(url):
        html = visitor.get(url, {"round": 1}).content.decode()
        assert 'hx-trigger="every 10s"' in html  # Favoriten – Hietzing is still open
        return html.split('data-version="')[1].split('"')[0]

    before = version(rounds)
    services.match_confirm(match=match, user=league.captains["Ottakring 1"])
    fragment = visitor.get(rounds, {"fragment": "1", "round": 1, "v": before})
    assert fragment.status_code == 200
    assert "confirmed by the away team" in fragment.content.decode()
    # Hietzing did not appear: no game changes, the table does.
    before = version(table)
    services.match_decide(
        match=league.match("Favoriten 1", 1),
        user=league.director,
        reason="Hietzing nicht angetreten",
        record=game_record_result,
        absent="away",
    )
    fragment = visitor.get(table, {"fragment": "1", "v": before})
    assert fragment.status_code == 200
    row = fragment.content.decode().split('<tr data-team="Favoriten 1">')[1].split("</tr>")[0]
    assert [cell.rsplit(">", 1)[1] for cell in row.split("</td>")[:-1]][6:8] == ["2", "4.0"]


def test_the_table_page_shows_the_rank_after_each_round(played, visitor):
    html = visitor.get(reverse("leagues:division", args=[played.first.pk])).content.decode()
    progress = html.split('class="table table-sm table-bordered league-progress"')[1].split("</table>")[0]
    rows = [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in progress.split("<tr>")[2:]
    ]
    assert rows == [
        ["Donaustadt 1", "1", "1", "1"],
        ["Hietzing 1", "2", "2", "2"],
        ["Favoriten 1", "3", "3", "3"],
        ["Ottakring 1", "4", "4", "4"],
    ]


def test_a_teams_page_shows_its_results_from_its_side_and_its_players(played, visitor):
    team = played.teams["Ottakring 1"]
    html = visitor.get(reverse("leagues:division_team", args=[played.first.pk, team.pk])).content.decode()
    results = html.split("league-team-results")[1].split("</div>")[0]
    items = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item.split(">", 1)[1])).strip()
        for item in results.split("<a ")[1:]
    ]
    assert items == [
        "Round 1 · 2026-10-04 away: Donaustadt 1 1.5 : 2.5",
        "Round 2 · 2026-10-18 home: Hietzing 1 0.0 : 4.0",
        "Round 3 · 2026-11-08 away: Favoriten 1 1.5 : 2.5",
    ]
    players = html.split("league-team-players")[1]
    assert "Spieler1, Ott" in players and 'league-rp">' in players
    other = played.teams["Donaustadt 2"]  # of the 1. Klasse
    assert visitor.get(reverse("leagues:division_team", args=[played.first.pk, other.pk])).status_code == 404


def test_the_match_card_and_report_show_the_ratings_and_the_lineups_averages(played, visitor):
    match = played.match("Donaustadt 1", 1)
    card = visitor.get(reverse("leagues:public_match", args=[match.pk])).content.decode()
    # The ratings of the match day: rank r 2100 − 100·r; Ottakring left board 4 empty.
    ratings = re.findall(r'league-rating">(\d+)<', card)
    assert ratings == ["2000", "2000", "1900", "1900", "1800", "1800", "1700"]
    assert "Ø 1850" in card and "Ø 1900" in card
    report = visitor.get(reverse("leagues:match_report", args=[match.pk])).content.decode()
    assert "Average rating: 1850" in report and "Average rating: 1900" in report
    assert "Spieler1, Don (2000)" in report

def _row(html: str, team: str) -> list[str]:
    """The texts of the cells of ``team``'s row of the division table."""
    row = html.split(f'<tr data-team="{team}">')[1].split("</tr>")[0]
    return [cell.rsplit(">", 1)[1] for cell in row.split("</td>")[:-1]]


def test_the_table_and_players_pages_are_cached_until_a_league_save_changes_them(
    league, public, visitor, django_assert_max_num_queries
):
    """Drawn once, served from the cache to the next reader (and a 304 to a browser that has
    the page), and drawn anew at once when a captain's result or confirmation changes them."""
    from tests.leagues.played import play

    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    table_url = reverse("leagues:division", args=[league.first.pk])
    players_url = reverse("leagues:division_players", args=[league.first.pk])
    favoriten = str(league.players["Favoriten"][0])
    first = visitor.get(table_url)
    assert _row(first.content.decode(), "Favoriten 1")[2:7] == ["0", "0", "0", "0", "0"]
    assert _row(first.content.decode(), "Donaustadt 1")[2:8] == ["1", "1", "0", "0", "2", "2.5"]
    assert favoriten not in visitor.get(players_url).content.decode()
    with django_assert_max_num_queries(19):  # its version only: not the season's matches and games
        again = visitor.get(table_url)
    assert _row(again.content.decode(), "Donaustadt 1") == _row(first.content.decode(), "Donaustadt 1")
    assert visitor.get(table_url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 304
    play(league, "Favoriten 1", 1, "LLWW")
    after = visitor.get(table_url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert after.status_code == 200
    assert _row(after.content.decode(), "Favoriten 1")[2:8] == ["1", "0", "1", "0", "1", "2.0"]
    assert favoriten in visitor.get(players_url).content.decode()


def test_the_rounds_page_is_cached_until_a_result_changes_its_cards(league, public, visitor):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.leagues.played import play

    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    url = reverse("leagues:division_rounds", args=[league.first.pk]) + "?round=1"
    with CaptureQueriesContext(connection) as cold:
        first = visitor.get(url).content.decode()
    with CaptureQueriesContext(connection) as warm:
        again = visitor.get(url).content.decode()
    assert len(warm.captured_queries) < len(cold.captured_queries)
    assert again.count("2.5 : 1.5") == first.count("2.5 : 1.5") == 1 and "2.0 : 2.0" not in first
    play(league, "Favoriten 1", 1, "LLWW")
    assert "2.0 : 2.0" in visitor.get(url).content.decode()  # Favoriten 1 – Hietzing 1
