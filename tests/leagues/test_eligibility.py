"""The roster rules, one by one: each accepted and refused, with the message naming the rule,
the board and the player."""

import datetime

import pytest

from clubrating.leagues import services
from clubrating.leagues.models import RosterChange, RosterChangeKind, RosterEntry
from clubrating.leagues.services import LineupRefused
from clubrating.tournaments.models import LineupEntry, Result
from ratings.services import game_record_result
from tests.factories import MemberFactory
from tests.leagues.conftest import DATES, at, submit

pytestmark = pytest.mark.usefixtures("english")


def refusal(league, team, number, ranks) -> list[str]:
    with pytest.raises(LineupRefused) as caught:
        submit(league, team, number, ranks)
    return caught.value.problems


def test_a_team_lines_up_its_own_block_in_roster_order(league):
    entries = submit(league, "Donaustadt 2", 1, [5, 6, 7, 8])
    assert [(e.board, e.member.last_name) for e in entries] == [
        (1, "Spieler5"),
        (2, "Spieler6"),
        (3, "Spieler7"),
        (4, "Spieler8"),
    ]


def test_a_player_may_play_for_a_higher_team(league):
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 9])
    assert (
        LineupEntry.objects.filter(team=league.teams["Donaustadt 1"].team, board=4).get().member.last_name
        == "Spieler9"
    )


def test_a_player_may_not_play_for_a_lower_team(league):
    assert refusal(league, "Donaustadt 2", 1, [3, 5, 6, 7]) == [
        "Board 1: Spieler3, Don belongs to team 1 and may not play for the lower team 2."
    ]
    assert not LineupEntry.objects.exists()


def test_the_board_order_follows_the_roster(league):
    assert refusal(league, "Donaustadt 1", 1, [1, 3, 2, 4]) == [
        "Board 3: Spieler2, Don (rank 2) may not sit below Spieler3, Don (rank 3, board 2): "
        "the board order follows the roster."
    ]


def test_empty_boards_keep_the_order_of_the_others(league):
    entries = submit(league, "Donaustadt 1", 1, [1, None, 3, 4])
    assert [e.board for e in entries] == [1, 3, 4]


def test_a_player_off_the_roster_is_refused(league):
    stranger = MemberFactory(first_name="Fritz", last_name="Fremd")
    with pytest.raises(LineupRefused) as caught:
        services.lineup_submit(
            match=league.match("Donaustadt 1", 1),
            team=league.teams["Donaustadt 1"],
            members=[stranger],
            user=league.captains["Donaustadt 1"],
            now=datetime.datetime(2026, 10, 1, 10, tzinfo=datetime.UTC),
        )
    assert caught.value.problems == ["Board 1: Fremd, Fritz is not on the roster of SK Donaustadt."]


def test_nobody_plays_two_matches_of_one_round(league):
    submit(league, "Donaustadt 2", 1, [5, 6, 7, 9])
    assert refusal(league, "Donaustadt 3", 1, [9, 10, 11, 12]) == [
        "Board 1: Spieler9, Don already plays for Donaustadt 2 in this round."
    ]
    # Across divisions too: Donaustadt 1 plays in the Landesliga.
    assert refusal(league, "Donaustadt 1", 1, [1, 2, 3, 5]) == [
        "Board 4: Spieler5, Don already plays for Donaustadt 2 in this round."
    ]


def test_a_late_registration_joins_the_end_of_its_block_and_plays_from_its_day(league):
    late = MemberFactory(first_name="Lena", last_name="Spät")
    entry = services.roster_add(
        season=league.season,
        club=league.teams["Donaustadt 2"].club,
        member=late,
        team=league.teams["Donaustadt 2"],
        on=DATES[1],
        user=league.director,
        reason="Vereinswechsel",
    )
    assert entry.rank == 9
    assert list(
        RosterEntry.objects.filter(roster=entry.roster)
        .values_list("member__last_name", "rank")
        .filter(rank__gte=8)
    ) == [
        ("Spieler8", 8),
        ("Spät", 9),
        ("Spieler9", 10),
        ("Spieler10", 11),
        ("Spieler11", 12),
        ("Spieler12", 13),
    ]
    change = RosterChange.objects.get()
    assert (
        change.member,
        change.kind,
        change.valid_from,
        change.new_rank,
        change.new_team,
        change.reason,
        change.recorded_by,
    ) == (
        late,
        RosterChangeKind.ADDED,
        DATES[1],
        9,
        league.teams["Donaustadt 2"],
        "Vereinswechsel",
        league.director,
    )
    members = [*league.players["Donaustadt"][4:7], late]
    match, team = league.match("Donaustadt 2", 1), league.teams["Donaustadt 2"]
    with pytest.raises(LineupRefused) as caught:
        services.lineup_submit(
            match=match,
            team=team,
            members=members,
            user=league.captains["Donaustadt 2"],
            now=datetime.datetime(2026, 10, 1, 10, tzinfo=datetime.UTC),
        )
    assert caught.value.problems == ["Board 4: Spät, Lena is registered only from 2026-10-18."]
    match = league.match("Donaustadt 2", 2)
    services.lineup_submit(
        match=match,
        team=team,
        members=members,
        user=league.captains["Donaustadt 2"],
        now=datetime.datetime(2026, 10, 15, 10, tzinfo=datetime.UTC),
    )
    assert match.match.lineup.filter(board=4).get().member == late


def _play_all(league, number: int, result: str = Result.DRAW) -> None:
    """Every game of round ``number`` gets ``result``, written as the result service would."""
    from clubrating.tournaments.models import Game
    from clubrating.tournaments.services import game_results_write

    games = list(Game.objects.filter(round__number=number, team_match__isnull=False))
    game_results_write(games=games, results=[(result, result)] * len(games))


def _played(league, team: str, number: int, ranks, *, opponent_ranks=(1, 2, 3, 4)) -> None:
    """``team`` lines up ``ranks`` in round ``number``, its opponent (another club's team)
    ``opponent_ranks``, and every board with a game is drawn."""
    submit(league, team, number, ranks)
    submit(league, league.opponent(team, number), number, list(opponent_ranks))
    _play_all(league, number)


def test_a_player_is_fixed_in_a_higher_team_after_the_seasons_number_of_games_there(league):
    # Spieler5 (team 2) plays for team 1 in round 1: once is not yet fixed (two games fix).
    _played(league, "Donaustadt 1", 1, [1, 2, 3, 5])
    submit(league, "Donaustadt 2", 2, [5, 6, 7, 8])
    LineupEntry.objects.filter(match__round__number=2, team=league.teams["Donaustadt 2"].team).delete()
    _played(league, "Donaustadt 1", 2, [1, 2, 3, 5])
    # Two games for team 1: he is fixed there and may not go back to team 2 ...
    assert refusal(league, "Donaustadt 2", 3, [5, 6, 7, 8]) == [
        "Board 1: Spieler5, Don is fixed in team 1 after 2 games there."
    ]
    # ... but plays for team 1 still.
    submit(league, "Donaustadt 1", 3, [1, 2, 3, 5])


def test_a_lineup_of_a_match_not_played_yet_is_no_game_that_fixes(league):
    # Spieler5 lined up for team 1 in rounds 1 and 2, but neither match has been played (a match
    # moved to a later day, an opponent without lineup): he has played no game there yet.
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 5])
    submit(league, "Donaustadt 1", 2, [1, 2, 3, 5])
    submit(league, "Favoriten 1", 2, [1, 2, 3, 4])
    assert LineupEntry.objects.filter(member=league.players["Donaustadt"][4]).count() == 2
    submit(league, "Donaustadt 2", 3, [5, 6, 7, 8])


def test_a_board_won_by_forfeit_is_a_game_that_fixes(league):
    # Ottakring leaves board 4 empty in round 1: Spieler5 sat there and won it by forfeit once the
    # result is entered; in round 2 he plays.
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 5])
    submit(league, "Ottakring 1", 1, [1, 2, 3, None])
    services.match_results_enter(
        match=league.match("Donaustadt 1", 1),
        results={1: Result.DRAW, 2: Result.DRAW, 3: Result.DRAW},
        user=league.captains["Donaustadt 1"],
        record=game_record_result,
        now=at(DATES[0], 18),
    )
    _played(league, "Donaustadt 1", 2, [1, 2, 3, 5])
    assert refusal(league, "Donaustadt 2", 3, [5, 6, 7, 8]) == [
        "Board 1: Spieler5, Don is fixed in team 1 after 2 games there."
    ]


def test_a_board_lost_by_forfeit_is_no_game_that_fixes(league):
    _played(league, "Donaustadt 1", 1, [1, 2, 3, 5])
    game = league.match("Donaustadt 1", 1).match.games.get(board=4)  # Spieler5 has black
    from clubrating.tournaments.services import game_results_write

    game_results_write(games=[game], results=[(Result.WHITE_FORFEIT_WIN, Result.WHITE_FORFEIT_WIN)])
    _played(league, "Donaustadt 1", 2, [1, 2, 3, 5])
    submit(league, "Donaustadt 2", 3, [5, 6, 7, 8])


def test_every_broken_rule_is_named(league):
    submit(league, "Donaustadt 2", 1, [5, 6, 7, 8])
    assert refusal(league, "Donaustadt 3", 1, [2, 8, 7, 9]) == [
        "Board 1: Spieler2, Don belongs to team 1 and may not play for the lower team 3.",
        "Board 2: Spieler8, Don belongs to team 2 and may not play for the lower team 3.",
        "Board 2: Spieler8, Don already plays for Donaustadt 2 in this round.",
        "Board 3: Spieler7, Don belongs to team 2 and may not play for the lower team 3.",
        "Board 3: Spieler7, Don already plays for Donaustadt 2 in this round.",
        "Board 3: Spieler7, Don (rank 7) may not sit below Spieler8, Don (rank 8, board 2): "
        "the board order follows the roster.",
    ]


def test_the_refusal_speaks_german_by_default(league):
    from django.utils import translation

    _played(league, "Donaustadt 1", 1, [1, 2, 3, 5])
    _played(league, "Donaustadt 1", 2, [1, 2, 3, 5])
    with translation.override("de-at"):
        assert refusal(league, "Donaustadt 2", 3, [5, 6, 7, 8]) == [
            "Brett 1: Spieler5, Don ist nach 2 Einsätzen in der 1. Mannschaft dort festgespielt."
        ]


def test_a_player_taken_off_the_roster_may_no_longer_play_and_the_others_move_up(league):
    don = league.players["Donaustadt"]
    services.roster_remove(
        season=league.season,
        club=league.teams["Donaustadt 1"].club,
        member=don[1],
        on=DATES[0],
        user=league.director,
        reason="Vereinswechsel",
        today=DATES[0],
    )
    roster = RosterEntry.objects.filter(roster__club=league.teams["Donaustadt 1"].club)
    assert list(roster.filter(rank__lte=3).values_list("member__last_name", "rank")) == [
        ("Spieler1", 1),
        ("Spieler3", 2),
        ("Spieler4", 3),
    ]
    assert roster.count() == 11
    change = RosterChange.objects.get()
    assert (change.kind, change.old_rank, change.old_team, change.new_rank, change.valid_from) == (
        RosterChangeKind.REMOVED,
        2,
        league.teams["Donaustadt 1"],
        None,
        DATES[0],
    )
    assert refusal(league, "Donaustadt 1", 1, [1, 2, 3, 4]) == [
        "Board 2: Spieler2, Don is not on the roster of SK Donaustadt."
    ]


def test_a_player_cannot_sit_on_both_sides_of_a_club_derby(league):
    # Round 2 of the 1. Klasse: Donaustadt 2 – Donaustadt 3.
    submit(league, "Donaustadt 3", 2, [9, 10, 11, 12])
    assert refusal(league, "Donaustadt 2", 2, [5, 6, 7, 9]) == [
        "Board 4: Spieler9, Don already plays for Donaustadt 3 in this round."
    ]
