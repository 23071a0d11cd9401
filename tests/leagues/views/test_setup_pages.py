"""The season's setup pages: an official creates a season, its director adds divisions, teams,
captains and the schedule, and moves a player on the roster page; others are refused."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from clubrating.leagues.models import (
    Captain,
    Division,
    LeagueMatch,
    LeagueSeason,
    LeagueTeam,
    RosterChange,
    RosterChangeKind,
)
from clubrating.tournaments.models import Round
from tests.factories import ClubFactory, MemberFactory
from tests.ratings.factories import set_today

pytestmark = pytest.mark.usefixtures("english")


def client_for(user=None) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        client.force_login(user)
    return client


SEASON = {
    "name": "Wiener Liga 2027/28",
    "start_date": "2027-09-01",
    "end_date": "2028-06-30",
    "match_points_win": "3",
    "match_points_draw": "1",
    "match_points_loss": "0",
    "criterion_1": "MP",
    "criterion_2": "BW",
    "criterion_3": "BP",
    "lineup_deadline_hours": "36",
    "fixing_games": "2",
    "match_start_time": "15:30",
}


def test_an_official_creates_a_season_with_exactly_the_rules_posted(official):
    client = client_for(official)
    assert client.get(reverse("leagues:seasons")).content.decode().count(reverse("leagues:season_new")) == 1
    response = client.post(reverse("leagues:season_new"), SEASON)
    season = LeagueSeason.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("leagues:setup", args=[season.pk])
    assert season.name == "Wiener Liga 2027/28"
    assert (season.start_date, season.end_date) == (datetime.date(2027, 9, 1), datetime.date(2028, 6, 30))
    assert (season.match_points_win, season.match_points_draw, season.match_points_loss) == (3, 1, 0)
    assert season.standings_criteria == "MP,BW,BP"
    assert season.lineup_deadline_hours == 36
    assert season.fixing_games == 2
    assert season.match_start_time == datetime.time(15, 30)
    assert list(season.directors.all()) == [official]
    assert client.get(reverse("leagues:setup", args=[season.pk])).status_code == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"match_points_win": "1"}, "A win must give more match points than a draw"),
        ({"criterion_2": "MP"}, "Choose each standings criterion at most once"),
        ({"end_date": "2027-01-01"}, "The season cannot end before it starts."),
        ({"name": " "}, "This field is required."),
        ({"fixing_games": "0"}, "Ensure this value is greater than or equal to 1."),
    ],
)
def test_bad_rules_are_refused_and_no_season_is_created(official, change, message):
    response = client_for(official).post(reverse("leagues:season_new"), {**SEASON, **change})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not LeagueSeason.objects.exists()


@pytest.mark.parametrize("role", ["visitor", "member"])
def test_visitors_and_members_cannot_create_a_season(db, role):
    user = User.objects.create_user("mitglied", password="pw") if role == "member" else None
    response = client_for(user).post(reverse("leagues:season_new"), SEASON)
    assert response.status_code == (302 if role == "visitor" else 403)
    if role == "visitor":
        assert response["Location"].startswith(reverse("login"))
    assert not LeagueSeason.objects.exists()


def test_the_director_sets_up_a_division_and_makes_its_schedule(official):
    client = client_for(official)
    client.post(reverse("leagues:season_new"), SEASON)
    season = LeagueSeason.objects.get()
    setup = reverse("leagues:setup", args=[season.pk])
    response = client.post(
        setup,
        {"step": "division", "name": "Oberliga", "level": "1", "boards": "6", "double_round_robin": "on"},
    )
    assert response.status_code == 302
    division = Division.objects.get()
    assert (division.name, division.boards, division.level, division.double_round_robin) == (
        "Oberliga",
        6,
        1,
        True,
    )
    clubs = [ClubFactory(name=f"SK {name}", short_name=name) for name in ("Alpha", "Beta", "Gamma", "Delta")]
    for club in clubs:
        response = client.post(
            setup, {"step": "team", "division": division.pk, "club": club.pk, "number": "1", "name": ""}
        )
        assert response.status_code == 302
    assert sorted(LeagueTeam.objects.values_list("team__name", flat=True)) == [
        "Alpha 1",
        "Beta 1",
        "Delta 1",
        "Gamma 1",
    ]
    # The same team twice is refused with the service's message.
    response = client.post(
        setup, {"step": "team", "division": division.pk, "club": clubs[0].pk, "number": "1"}
    )
    assert response.status_code == 400
    assert "SK Alpha has a team 1 in this season already." in response.content.decode()
    assert LeagueTeam.objects.count() == 4
    captain = User.objects.create_user("kapitaen", password="pw")
    alpha = LeagueTeam.objects.get(club=clubs[0])
    MemberFactory(club=clubs[1], user=captain, first_name="Karl", last_name="Kapitän")
    # A member of another club is asked about first, then appointed when the box is ticked.
    response = client.post(setup, {"step": "captain", "team": alpha.pk, "username": "Kapitaen"})
    assert response.status_code == 400
    assert (
        "kapitaen is not a member of SK Alpha (SK Beta). Tick the box below to appoint him anyway."
        in response.content.decode()
    )
    assert not Captain.objects.exists()
    assert (
        client.post(
            setup, {"step": "captain", "team": alpha.pk, "username": "Kapitaen", "other_club": "on"}
        ).status_code
        == 302
    )
    assert list(Captain.objects.values_list("team", "user")) == [(alpha.pk, captain.pk)]
    response = client.post(setup, {"step": "captain", "team": alpha.pk, "username": "niemand"})
    assert response.status_code == 400
    assert "There is no active account of this user name." in response.content.decode()
    assert Captain.objects.count() == 1

    schedule = reverse("leagues:schedule_new", args=[division.pk])
    assert schedule in client.get(setup).content.decode()
    form = {"first_date": "2027-09-12", "interval": "14", "start_time": "15:30"}
    preview = client.post(schedule, {**form, "action": "preview"})
    assert preview.status_code == 200
    assert preview.context["preview"] == [
        datetime.date(2027, 9, 12) + datetime.timedelta(days=14 * n) for n in range(6)
    ]
    assert not LeagueMatch.objects.exists()
    response = client.post(schedule, {**form, "action": "create"})
    assert response.status_code == 302
    # Four teams, double round robin: six rounds of two matches, a fortnight apart, at 15:30.
    assert LeagueMatch.objects.count() == 12
    rounds = Round.objects.filter(tournament=division.tournament).order_by("number")
    assert [r.date for r in rounds] == [
        datetime.date(2027, 9, 12) + datetime.timedelta(days=14 * n) for n in range(6)
    ]
    assert {m.starts_at.astimezone().time() for m in LeagueMatch.objects.all()} == {datetime.time(15, 30)}
    assert {m.match.boards for m in LeagueMatch.objects.select_related("match")} == {6}
    # A second schedule is refused and changes nothing.
    again = client.post(schedule, {**form, "action": "create"})
    assert again.status_code == 400
    assert "This division has its schedule already." in again.content.decode()
    assert LeagueMatch.objects.count() == 12


def test_a_schedule_without_enough_teams_is_refused(official):
    client = client_for(official)
    client.post(reverse("leagues:season_new"), SEASON)
    season = LeagueSeason.objects.get()
    client.post(
        reverse("leagues:setup", args=[season.pk]),
        {"step": "division", "name": "A", "level": "1", "boards": "4"},
    )
    division = Division.objects.get()
    response = client.post(
        reverse("leagues:schedule_new", args=[division.pk]),
        {"first_date": "2027-09-12", "interval": "14", "start_time": "15:30", "action": "create"},
    )
    assert response.status_code == 400
    assert "A division needs at least two teams." in response.content.decode()
    assert not Round.objects.exists()


def test_the_rules_page_refuses_once_a_game_has_a_result(league):
    from tests.leagues.conftest import submit

    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, league.opponent("Donaustadt 1", 1), 1, [1, 2, 3, 4])
    league.match("Donaustadt 1", 1).match.games.filter(board=1).update(result="1-0")
    client = client_for(league.director)
    page = client.get(reverse("leagues:setup", args=[league.season.pk]))
    assert "its rules can no longer be changed" in page.content.decode()
    response = client.post(
        reverse("leagues:setup", args=[league.season.pk]),
        {"step": "rules", **{k: v for k, v in SEASON.items() if k != "name"}},
    )
    assert response.status_code == 400
    league.season.refresh_from_db()
    assert (league.season.match_points_win, league.season.fixing_games) == (2, 2)


@pytest.mark.parametrize("who", ["captain", "official"])
def test_only_the_seasons_director_reaches_its_setup(league, official, who):
    user = league.captains["Donaustadt 1"] if who == "captain" else official
    client = client_for(user)
    assert client.get(reverse("leagues:setup", args=[league.season.pk])).status_code == 403
    assert client.get(reverse("leagues:schedule_new", args=[league.first.pk])).status_code == 403
    response = client.post(
        reverse("leagues:setup", args=[league.season.pk]),
        {"step": "division", "name": "X", "level": "3", "boards": "4"},
    )
    assert response.status_code == 403
    assert Division.objects.count() == 2


def test_the_director_moves_a_player_on_the_roster_page(league, monkeypatch):
    set_today(monkeypatch, datetime.date(2026, 10, 25))
    club = league.teams["Donaustadt 1"].club
    url = reverse("leagues:roster", args=[league.season.pk, club.pk])
    client = client_for(league.director)
    player = league.players["Donaustadt"][0]
    response = client.post(
        url,
        {
            "move-member": player.pk,
            "move-team": league.teams["Donaustadt 3"].pk,
            "move-on": "2026-10-20",
            "move-reason": "Formkrise",
        },
    )
    assert response.status_code == 302
    change = RosterChange.objects.get()
    assert (change.kind, change.valid_from, change.old_rank, change.new_rank) == (
        RosterChangeKind.MOVED,
        datetime.date(2026, 10, 20),
        1,
        12,
    )
    page = client.get(url).content.decode()
    assert "Formkrise" in page


def test_a_refused_move_on_the_roster_page_changes_nothing(league, monkeypatch):
    set_today(monkeypatch, datetime.date(2026, 10, 25))
    club = league.teams["Donaustadt 1"].club
    url = reverse("leagues:roster", args=[league.season.pk, club.pk])
    response = client_for(league.director).post(
        url,
        {
            "move-member": league.players["Donaustadt"][0].pk,
            "move-team": league.teams["Donaustadt 1"].pk,
            "move-on": "2026-10-20",
        },
    )
    assert response.status_code == 400
    assert "belongs to Donaustadt 1 already." in response.content.decode()
    assert not RosterChange.objects.exists()
    # A captain cannot move players.
    captain = client_for(league.captains["Donaustadt 1"])
    response = captain.post(
        url,
        {
            "move-member": league.players["Donaustadt"][0].pk,
            "move-team": league.teams["Donaustadt 2"].pk,
            "move-on": "2026-10-20",
        },
    )
    assert response.status_code == 403
    assert not RosterChange.objects.exists()
