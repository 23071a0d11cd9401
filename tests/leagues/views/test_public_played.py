"""The league's public pages of the Landesliga played through its three rounds
(tests/leagues/played.py): table and cross table, players' statistics with Rp, the match report
(print and PDF), the exports and the TRF file. The league is played once for the module: the
tests only read it, each in a savepoint of the module's transaction (tests/leagues/conftest.py)."""

import copy
import csv
import io
import re

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubrating.interchange.formats.trf import parse_trf
from clubrating.interchange.formats.trf.teams import (
    TrfForfeitMatch,
    TrfLineup,
    TrfTeam,
    team_records,
)
from tests.factories import ClubFactory
from tests.leagues.played import play_landesliga, rate_everyone

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture(scope="module")
def played_once(league_once, django_db_blocker):
    """The league with a public home club, every player rated and the Landesliga played."""
    with django_db_blocker.unblock(), transaction.atomic(), translation.override("en"):
        ClubFactory(name="Schachklub Heimat", short_name="SK Heimat", is_home=True, public_tournaments=True)
        rate_everyone(league_once)  # before the games: each is rated on entry
        play_landesliga(league_once)
        yield league_once
        transaction.set_rollback(True)


@pytest.fixture
def played(played_once, db):
    """The played league, its objects copied for one test."""
    return copy.deepcopy(played_once)


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
