"""Setting up a season through the services: rules changed until the first match is played, and
a player moved to another team during the season."""

import datetime

import pytest

from clubrating.leagues import services
from clubrating.leagues.errors import LeagueRefused
from clubrating.leagues.models import RosterChange, RosterChangeKind, RosterEntry
from clubrating.tournaments.models import Result
from tests.factories import MemberFactory
from tests.leagues.conftest import submit

pytestmark = pytest.mark.usefixtures("english")

RULES = {
    "start_date": datetime.date(2026, 9, 1),
    "end_date": datetime.date(2027, 6, 30),
    "match_points": (3, 1, 0),
    "standings_criteria": ["BP", "MP", "W"],
    "lineup_deadline_hours": 48,
    "fixing_games": 4,
    "match_start_time": datetime.time(10, 30),
}


def test_the_director_changes_the_rules_before_the_first_match(league):
    services.season_rules_update(season=league.season, user=league.director, **RULES)
    league.season.refresh_from_db()
    assert (
        league.season.match_points_win,
        league.season.match_points_draw,
        league.season.match_points_loss,
    ) == (3, 1, 0)
    assert league.season.standings_criteria == "BP,MP,W"
    assert league.season.lineup_deadline_hours == 48
    assert league.season.fixing_games == 4
    assert league.season.match_start_time == datetime.time(10, 30)


def test_the_rules_are_fixed_once_a_board_game_has_a_result(league):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, league.opponent("Donaustadt 1", 1), 1, [1, 2, 3, 4])
    match = league.match("Donaustadt 1", 1)
    game = match.match.games.order_by("board").first()
    game.result = Result.WHITE_WINS
    game.save(update_fields=["result"])
    assert services.season_played(league.season)
    with pytest.raises(LeagueRefused) as refused:
        services.season_rules_update(season=league.season, user=league.director, **RULES)
    assert refused.value.message == (
        "The first match of the season has been played; its rules can no longer be changed."
    )
    league.season.refresh_from_db()
    assert (league.season.match_points_win, league.season.standings_criteria) == (2, "MP,BP,BW,DE")


def test_only_the_director_changes_the_rules(league):
    with pytest.raises(LeagueRefused) as refused:
        services.season_rules_update(season=league.season, user=league.captains["Donaustadt 1"], **RULES)
    assert refused.value.code == "forbidden"
    league.season.refresh_from_db()
    assert league.season.fixing_games == 2


def test_bad_rules_are_refused_and_nothing_changes(league):
    with pytest.raises(LeagueRefused) as refused:
        services.season_rules_update(
            season=league.season, user=league.director, **{**RULES, "match_points": (1, 1, 0)}
        )
    assert refused.value.field == "match_points"
    league.season.refresh_from_db()
    assert league.season.match_points_win == 2
    assert league.season.lineup_deadline_hours == 24


def _ranks(league):
    return [
        (entry.member.last_name, entry.team.number)
        for entry in RosterEntry.objects.filter(roster__club=league.teams["Donaustadt 1"].club)
        .select_related("member", "team")
        .order_by("rank")
    ]


def test_a_player_moves_down_to_a_lower_team_with_a_dated_logged_change(league):
    player = league.players["Donaustadt"][1]  # rank 2, team 1
    entry = services.roster_move(
        season=league.season,
        club=league.teams["Donaustadt 1"].club,
        member=player,
        team=league.teams["Donaustadt 2"],
        on=datetime.date(2026, 10, 10),
        user=league.director,
        reason="Wunsch des Spielers",
        today=datetime.date(2026, 10, 12),
    )
    # He leaves rank 2 (ranks 3 and 4 move up) and ends team 2's block: rank 8.
    assert entry.rank == 8
    assert _ranks(league) == [
        ("Spieler1", 1),
        ("Spieler3", 1),
        ("Spieler4", 1),
        ("Spieler5", 2),
        ("Spieler6", 2),
        ("Spieler7", 2),
        ("Spieler8", 2),
        ("Spieler2", 2),
        ("Spieler9", 3),
        ("Spieler10", 3),
        ("Spieler11", 3),
        ("Spieler12", 3),
    ]
    change = RosterChange.objects.get(member=player)
    assert change.kind == RosterChangeKind.MOVED
    assert change.valid_from == datetime.date(2026, 10, 10)
    assert (change.old_rank, change.new_rank) == (2, 8)
    assert (change.old_team, change.new_team) == (league.teams["Donaustadt 1"], league.teams["Donaustadt 2"])
    assert change.reason == "Wunsch des Spielers"
    assert change.recorded_by == league.director


def test_a_player_moves_up_to_a_higher_team(league):
    player = league.players["Donaustadt"][9]  # rank 10, team 3
    entry = services.roster_move(
        season=league.season,
        club=league.teams["Donaustadt 1"].club,
        member=player,
        team=league.teams["Donaustadt 1"],
        on=datetime.date(2026, 10, 10),
        user=league.director,
        today=datetime.date(2026, 10, 12),
    )
    assert entry.rank == 5
    assert _ranks(league)[4:6] == [("Spieler10", 1), ("Spieler5", 2)]
    assert [
        rank for rank in RosterEntry.objects.filter(roster=entry.roster).values_list("rank", flat=True)
    ] == list(range(1, 13))


@pytest.mark.parametrize(
    ("team", "on", "message"),
    [
        ("Donaustadt 1", datetime.date(2026, 10, 10), "Spieler2, Don belongs to Donaustadt 1 already."),
        ("Donaustadt 2", datetime.date(2026, 8, 1), "A roster change is dated within the season."),
        ("Donaustadt 2", datetime.date(2027, 7, 1), "A roster change is dated within the season."),
        (
            "Favoriten 1",
            datetime.date(2026, 10, 10),
            "Favoriten 1 is not a team of SK Donaustadt in this season.",
        ),
        (
            "Donaustadt 2",
            datetime.date(2026, 10, 13),
            "A roster change takes effect when it is recorded: date it 2026-10-12 or earlier.",
        ),
    ],
)
def test_a_move_that_does_not_fit_is_refused_and_nothing_changes(league, team, on, message):
    before = _ranks(league)
    with pytest.raises(LeagueRefused) as refused:
        services.roster_move(
            season=league.season,
            club=league.teams["Donaustadt 1"].club,
            member=league.players["Donaustadt"][1],
            team=league.teams[team],
            on=on,
            user=league.director,
            today=datetime.date(2026, 10, 12),
        )
    assert refused.value.message == message
    assert _ranks(league) == before
    assert not RosterChange.objects.exists()


def test_a_player_not_on_the_roster_cannot_move(league):
    with pytest.raises(LeagueRefused) as refused:
        services.roster_move(
            season=league.season,
            club=league.teams["Donaustadt 1"].club,
            member=league.players["Favoriten"][0],
            team=league.teams["Donaustadt 2"],
            on=datetime.date(2026, 10, 10),
            user=league.director,
            today=datetime.date(2026, 10, 12),
        )
    assert refused.value.message == "Spieler1, Fav is not on the roster of SK Donaustadt."


def test_no_team_joins_a_division_with_its_schedule(league):
    with pytest.raises(LeagueRefused) as refused:
        services.team_register(division=league.first, club=league.teams["Meidling 1"].club, number=2)
    assert refused.value.message == "This division has its schedule already; no team can join it."
    assert league.first.teams.count() == 4


def test_the_schedule_check_counts_the_rounds_and_refuses_a_scheduled_division(league):
    with pytest.raises(LeagueRefused) as refused:
        services.schedule_check(division=league.first)
    assert refused.value.message == "This division has its schedule already."
    division = services.division_create(
        season=league.season, name="2. Klasse", boards=4, double_round_robin=True
    )
    with pytest.raises(LeagueRefused) as refused:
        services.schedule_check(division=division)
    assert refused.value.message == "A division needs at least two teams."
    for club in ("Favoriten", "Hietzing", "Ottakring"):
        services.team_register(division=division, club=league.teams[f"{club} 1"].club, number=2)
    # Three teams, double round robin: a bye in each round, six rounds.
    assert services.schedule_check(division=division) == 6


def test_only_the_league_director_changes_a_roster(league):
    club = league.teams["Donaustadt 1"].club
    player = league.players["Donaustadt"][1]
    late = MemberFactory(club=club)
    day = datetime.date(2026, 10, 10)
    for user in (league.captains["Donaustadt 1"], None):
        for change in (
            lambda user=user: services.roster_add(
                season=league.season,
                club=club,
                member=late,
                team=league.teams["Donaustadt 2"],
                on=day,
                user=user,
            ),
            lambda user=user: services.roster_move(
                season=league.season,
                club=club,
                member=player,
                team=league.teams["Donaustadt 2"],
                on=day,
                user=user,
                today=day,
            ),
            lambda user=user: services.roster_remove(
                season=league.season, club=club, member=player, on=day, user=user, today=day
            ),
        ):
            with pytest.raises(LeagueRefused) as refused:
                change()
            assert (refused.value.message, refused.value.code) == (
                "Only the league director can change a roster.",
                "forbidden",
            )
    assert RosterEntry.objects.filter(roster__club=club).count() == 12
    assert not RosterChange.objects.exists()


def test_a_withdrawal_dated_ahead_is_refused(league):
    club = league.teams["Donaustadt 1"].club
    with pytest.raises(LeagueRefused) as refused:
        services.roster_remove(
            season=league.season,
            club=club,
            member=league.players["Donaustadt"][1],
            on=datetime.date(2026, 11, 1),
            user=league.director,
            today=datetime.date(2026, 10, 12),
        )
    assert refused.value.message == (
        "A roster change takes effect when it is recorded: date it 2026-10-12 or earlier."
    )
    assert RosterEntry.objects.filter(roster__club=club).count() == 12
