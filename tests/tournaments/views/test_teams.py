"""Team competitions: teams, team membership, pairing team rounds, lineups, standings, matches."""

import pytest
from django.test import Client
from django.urls import reverse

from clubrating.tournaments.models import Game, LineupEntry, Result, Team, TeamMatch, TournamentKind
from tests.factories import (
    ClubFactory,
    MemberFactory,
    TeamFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)
from tests.language import speak

from .helpers import assert_forbidden, assert_sent_to_login, page, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(home_club):
    """Four teams (A-D, Berger numbers 1-4) of two players each; nothing paired yet."""
    tournament = TournamentFactory(name="Vereinsliga", kind=TournamentKind.TEAM, rounds_count=3)
    rank = 0
    for number, letter in enumerate("ABCD", start=1):
        team = TeamFactory(tournament=tournament, name=f"Team {letter}", club=home_club, start_rank=number)
        for board in (1, 2):
            rank += 1
            member = MemberFactory(last_name=f"{letter}{board}", first_name="Max", club=home_club)
            TournamentPlayerFactory(tournament=tournament, member=member, start_rank=rank, team=team)
    return tournament


def _members(tournament, *names):
    return [tournament.players.get(member__last_name=name).member for name in names]


def _lineup(client, tournament, match, team, names):
    data = {f"board_{board}": m.pk for board, m in enumerate(_members(tournament, *names), start=1)}
    return speak(client, "en").post(reverse("tournaments:lineup", args=[tournament.pk, match.pk, team.pk]),
                                    data)


def _pair(client, tournament):
    return speak(client, "en").post(reverse("tournaments:team_pair", args=[tournament.pk]), follow=True)


def _team(tournament, letter):
    return Team.objects.get(tournament=tournament, name=f"Team {letter}")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Manage teams", "Teams (4)", "New team", "Add team", "Players of the teams", "Save teams",
            "Pair round 1", "1. A1, Max"]),
    ("de-at", ["Mannschaften verwalten", "Mannschaften (4)", "Neue Mannschaft", "Mannschaft hinzufügen",
               "Spieler der Mannschaften", "Mannschaften speichern", "Runde 1 auslosen", "1. A1, Max"]),
])
def test_manage_page(official_client, league, lang, words):
    html = text(page(official_client, "teams_manage", league.pk, lang=lang))
    for word in words:
        assert word in html, word


def test_creating_a_team(official_client, league):
    club = ClubFactory(name="SK Nachbar")
    response = official_client.post(reverse("tournaments:teams_manage", args=[league.pk]),
                                    {"team-name": " Team E ", "team-club": club.pk})
    assert response.status_code == 302
    team = Team.objects.get(tournament=league, name="Team E")
    assert (team.club, team.start_rank) == (club, 5)


def test_a_team_name_is_used_once(official_client, league):
    response = official_client.post(reverse("tournaments:teams_manage", args=[league.pk]),
                                    {"team-name": "team a"})
    assert "Dieses Turnier hat bereits eine Mannschaft mit diesem Namen." in text(response)
    assert league.teams.count() == 4


def test_no_team_is_added_after_pairing(official_client, league):
    _pair(official_client, league)
    response = speak(official_client, "en").post(reverse("tournaments:teams_manage", args=[league.pk]),
                                                 {"team-name": "Team E"})
    assert "Teams cannot be added after the first round was paired." in text(response)
    assert league.teams.count() == 4


def test_assigning_players_to_teams(official_client, league):
    a1, b1 = (league.players.get(member__last_name=n) for n in ("A1", "B1"))
    data = {f"members-player_{p.pk}": p.team_id for p in league.players.all()}
    data[f"members-player_{a1.pk}"] = _team(league, "B").pk
    data[f"members-player_{b1.pk}"] = ""
    response = speak(official_client, "en").post(reverse("tournaments:team_players", args=[league.pk]), data,
                                                 follow=True)
    assert "Teams saved (2 changes)." in text(response)
    a1.refresh_from_db()
    b1.refresh_from_db()
    assert (a1.team.name, b1.team) == ("Team B", None)


def test_pairing_team_rounds_by_berger(official_client, league):
    response = _pair(official_client, league)
    assert "Round 1 has been paired." in text(response)
    _pair(official_client, league)
    matches = list(TeamMatch.objects.filter(round__tournament=league).order_by("round__number", "number")
                   .values_list("round__number", "number", "home_team__name", "away_team__name"))
    # FIDE Berger table for 4: round 1 1-4, 2-3; round 2 4-3, 1-2.
    assert matches == [(1, 1, "Team A", "Team D"), (1, 2, "Team B", "Team C"),
                       (2, 1, "Team D", "Team C"), (2, 2, "Team A", "Team B")]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Round 1, Team A – Team D: lineup of Team A", "Board 1", "Board 4",
            "the home team has white on the odd boards"]),
    ("de-at", ["Runde 1, Team A – Team D: Aufstellung von Team A", "Brett 1", "Brett 4",
               "die Heimmannschaft hat auf den ungeraden Brettern Weiß"]),
])
def test_lineup_page(official_client, league, lang, words):
    _pair(official_client, league)
    match = TeamMatch.objects.get(round__tournament=league, number=1)
    html = text(page(official_client, "lineup", league.pk, match.pk, match.home_team_id, lang=lang))
    for word in words:
        assert word in html, word
    assert "B1, Max" not in html  # only the team's own players are offered


def test_lineups_create_the_games_with_the_right_colours(official_client, league):
    _pair(official_client, league)
    match = TeamMatch.objects.get(round__tournament=league, number=2)  # Team B - Team C
    match.boards = 2
    match.save()
    assert _lineup(official_client, league, match, _team(league, "B"), ["B1", "B2"]).status_code == 302
    assert not Game.objects.exists()  # one lineup is not yet a pairing
    _lineup(official_client, league, match, _team(league, "C"), ["C2", "C1"])
    games = list(Game.objects.filter(team_match=match).order_by("board")
                 .values_list("board", "white__last_name", "black__last_name"))
    # Home team white on board 1, black on board 2; the games of match 2 are boards 3 and 4.
    assert games == [(3, "B1", "C2"), (4, "C1", "B2")]


def test_a_lineup_with_a_gap_is_refused(official_client, league):
    _pair(official_client, league)
    match = TeamMatch.objects.get(round__tournament=league, number=1)
    a1, a2 = _members(league, "A1", "A2")
    # _pair chose English: switch back to German as a visitor would.
    response = speak(official_client, "de-at").post(
        reverse("tournaments:lineup", args=[league.pk, match.pk, match.home_team_id]),
        {"board_1": a1.pk, "board_3": a2.pk})
    assert "Bitte die Bretter ab Brett 1 ohne Lücke besetzen." in text(response)
    assert not LineupEntry.objects.exists()


def _play_round_1(client, league):
    """Round 1: A-D 1½:½, B-C 1:1."""
    _pair(client, league)
    for match in TeamMatch.objects.filter(round__tournament=league):
        match.boards = 2
        match.save()
        home, away = match.home_team.name[-1], match.away_team.name[-1]
        _lineup(client, league, match, match.home_team, [f"{home}1", f"{home}2"])
        _lineup(client, league, match, match.away_team, [f"{away}1", f"{away}2"])
    results = {("A1", "D1"): Result.WHITE_WINS, ("D2", "A2"): Result.DRAW,
               ("B1", "C1"): Result.BLACK_WINS, ("C2", "B2"): Result.BLACK_FORFEIT_WIN}
    for (white, black), result in results.items():
        Game.objects.filter(white__last_name=white, black__last_name=black).update(result=result,
                                                                                  rated_result=result)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Team standings", "Match points", ">GP<", ">EMGSB<", "GP: game points.", "Team matches",
            "1.5", "0.5", "Team tie-breaks by FIDE C.07, edition 2023, in this order: MP, GP, EMGSB"]),
    ("de-at", ["Mannschaftswertung", "Matchpunkte", "GP: Brettpunkte.", "Mannschaftskämpfe", "1,5", "0,5",
               "Mannschaftsfeinwertungen nach FIDE C.07, Ausgabe 2023, in dieser Reihenfolge: "
               "MP, GP, EMGSB"]),
])
def test_team_standings(official_client, league, lang, words):
    _play_round_1(official_client, league)
    response = page(Client(), "team_standings", league.pk, lang=lang)
    rows = [(r.rank, r.team.name, r.match_points, r.board_points, r.sonneborn_berger)
            for r in response.context["rows"]]
    # SB = opponent's match points x own board points: A 0 x 1.5 = 0; B, C 1 x 1 = 1; D 2 x 0.5 = 1.
    assert rows == [(1, "Team A", 2, 1.5, 0.0), (2, "Team B", 1, 1.0, 1.0), (2, "Team C", 1, 1.0, 1.0),
                    (4, "Team D", 0, 0.5, 1.0)]
    html = text(response)
    for word in words:
        assert word in html, word


def test_the_api_serves_the_team_standings_as_the_page(official_client, league):
    _play_round_1(official_client, league)
    data = official_client.get(f"/api/v1/tournaments/{league.pk}/teams").json()
    # The tournament's own team tie-breaks in its order (the default GP, EMGSB), as the page.
    assert (data["division_id"], data["criteria"]) == (None, ["MP", "GP", "EMGSB"])
    assert [(r["rank"], r["name"], r["played"], r["match_points"], r["board_points"], r["criteria"])
            for r in data["rows"]] == [
        (1, "Team A", None, 2, 1.5, {"MP": 2, "GP": 1.5, "EMGSB": 0.0}),
        (2, "Team B", None, 1, 1.0, {"MP": 1, "GP": 1.0, "EMGSB": 1.0}),
        (2, "Team C", None, 1, 1.0, {"MP": 1, "GP": 1.0, "EMGSB": 1.0}),
        (4, "Team D", None, 0, 0.5, {"MP": 0, "GP": 0.5, "EMGSB": 1.0}),
    ]


def test_team_matches_page_shows_board_results_from_the_home_side(official_client, league):
    _play_round_1(official_client, league)
    response = page(Client(), "team_matches", league.pk, lang="de-at")
    views = [[(line.board, str(line.home), str(line.away), line.home_white, line.result)
              for line in mv.boards] + [(mv.home_points, mv.away_points, mv.finished)]
             for _rnd, matches in response.context["rounds"] for mv in matches]
    assert views == [
        [(1, "A1, Max", "D1, Max", True, "1–0"), (2, "A2, Max", "D2, Max", False, "½–½"), (1.5, 0.5, True)],
        [(1, "B1, Max", "C1, Max", True, "0–1"), (2, "B2, Max", "C2, Max", False, "+–−"), (1.0, 1.0, True)],
    ]
    html = text(response)
    assert "Runde 1" in html and "1,5 : 0,5" in html and "1,0 : 1,0" in html


def test_team_links_only_for_team_competitions(official_client, league):
    html = text(page(official_client, "detail", league.pk))
    for name in ("team_standings", "team_matches", "teams_manage"):
        assert reverse(f"tournaments:{name}", args=[league.pk]) in html
    visitor = text(page(Client(), "detail", league.pk))
    assert reverse("tournaments:team_standings", args=[league.pk]) in visitor
    assert reverse("tournaments:teams_manage", args=[league.pk]) not in visitor
    swiss = TournamentFactory(kind=TournamentKind.SWISS)
    assert "Team standings" not in text(page(official_client, "detail", swiss.pk))
    assert page(official_client, "team_standings", swiss.pk).status_code == 404


def _protected(league):
    pk = league.pk
    match = TeamMatch.objects.create(round=league.rounds.create(number=1), home_team=_team(league, "A"),
                                     away_team=_team(league, "B"), number=1)
    a1 = _members(league, "A1")[0]
    gets = [reverse("tournaments:teams_manage", args=[pk]),
            reverse("tournaments:lineup", args=[pk, match.pk, match.home_team_id])]
    posts = [
        (reverse("tournaments:teams_manage", args=[pk]), {"team-name": "Team X"}),
        (reverse("tournaments:team_players", args=[pk]), {}),
        (reverse("tournaments:team_pair", args=[pk]), {}),
        (reverse("tournaments:lineup", args=[pk, match.pk, match.home_team_id]), {"board_1": a1.pk}),
    ]
    return gets, posts


def _unchanged(league):
    assert league.teams.count() == 4
    assert league.players.filter(team__isnull=True).count() == 0
    assert TeamMatch.objects.count() == 1 and not LineupEntry.objects.exists()


def test_visitors_are_sent_to_the_login_page(league):
    assert_sent_to_login(Client(), *_protected(league))
    _unchanged(league)


def test_members_without_the_role_get_403(client, plain_user, league):
    client.force_login(plain_user)
    assert_forbidden(client, *_protected(league))
    _unchanged(league)


def test_a_protected_profile_is_named_beside_his_team_to_officials_only(official_client, league):
    """A team is a club's: a minor without his guardians' consent is not named on the team
    competition's pages, boards and API for visitors (``clubrating.clubs.privacy``)."""
    import datetime

    from django.db.models import Q

    minor = league.players.get(member__last_name="A1").member
    minor.birth_date, minor.guardian_consent_on = None, None
    minor.birth_year = datetime.date.today().year - 12
    minor.save(update_fields=["birth_date", "birth_year", "guardian_consent_on"])
    _pair(official_client, league)
    match = TeamMatch.objects.get(Q(home_team=_team(league, "A")) | Q(away_team=_team(league, "A")),
                                  round__tournament=league)
    match.boards = 2
    match.save()
    for team in (match.home_team, match.away_team):
        letter = team.name[-1]
        _lineup(official_client, league, match, team, [f"{letter}1", f"{letter}2"])
    game = Game.objects.get(Q(white=minor) | Q(black=minor), round__tournament=league)
    urls = [reverse("tournaments:team_standings", args=[league.pk]),
            reverse("tournaments:team_matches", args=[league.pk]),
            reverse("tournaments:round", args=[league.pk, 1]), game.get_absolute_url(),
            f"/api/v1/tournaments/{league.pk}/pairings", f"/api/v1/tournaments/{league.pk}/matches"]
    for url in urls:
        shown = speak(Client(), "en").get(url).content.decode()
        assert "A1, Max" not in shown, url
        # (the matches API leaves a withheld player null, as an empty board)
        assert "protected profile" in shown or url.endswith("/matches"), url
        assert "A1, Max" in speak(official_client, "en").get(url).content.decode(), url
