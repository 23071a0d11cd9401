import pytest
from django.utils import translation

from clubrating.clubs.models import Member
from clubrating.tournaments import services
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Game,
    Result,
    Round,
    Team,
    TeamMatch,
    TournamentKind,
)
from tests.factories import (
    ClubFactory,
    MemberFactory,
    TeamFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = pytest.mark.django_db


def register(tournament, ratings):
    members = [MemberFactory(last_name=f"P{i}", fide_rating=r) for i, r in enumerate(ratings, start=1)]
    services.players_register(tournament=tournament, members=members)
    return members


def boards(rnd):
    return [(g.white.last_name, g.black.last_name) for g in rnd.games.order_by("board")]


def finish(rnd, *results):
    for game, result in zip(rnd.games.order_by("board"), results):
        game.result = game.rated_result = result
        game.save()


def test_start_ranks_follow_rating():
    t = TournamentFactory()
    register(t, [1500, 2100, None, 1800])
    ranks = dict(t.players.values_list("member__last_name", "start_rank"))
    assert ranks == {"P2": 1, "P4": 2, "P1": 3, "P3": 4}


def test_duplicate_registration_refused():
    t = TournamentFactory()
    member = MemberFactory()
    services.player_register(tournament=t, member=member)
    with pytest.raises(TournamentRefused):
        services.player_register(tournament=t, member=member)
    assert t.players.count() == 1


def test_guest_becomes_member_of_their_club():
    t = TournamentFactory()
    player = services.guest_register(tournament=t, last_name="Gast", first_name="Gustav",
                                     club_name="SK Gastgeber", fide_rating=1750)
    assert player.member.club.name == "SK Gastgeber"
    assert player.fide_rating == 1750 and player.start_rank == 1
    assert Member.objects.filter(last_name="Gast").count() == 1


def test_round_robin_berger_with_bye():
    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    register(t, [2000, 1900, 1800, 1700, 1600])
    rnd = services.round_pair(tournament=t)
    # FIDE table for 6, player 6 = free: 1 is free in round 1; 2-5, 3-4.
    assert rnd.number == 1 and boards(rnd) == [("P2", "P5"), ("P3", "P4")]
    rnd2 = services.round_pair(tournament=t)  # a round robin may be paired ahead of results
    assert boards(rnd2) == [("P5", "P3"), ("P1", "P2")]


def test_round_robin_refuses_late_entry():
    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    register(t, [2000, 1900, 1800, 1700])
    services.round_pair(tournament=t)
    with pytest.raises(TournamentRefused):
        services.player_register(tournament=t, member=MemberFactory())


def test_swiss_rounds_byes_and_withdrawal():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    register(t, [2000, 1900, 1800, 1700, 1600])
    r1 = services.round_pair(tournament=t)
    assert boards(r1) == [("P1", "P3"), ("P4", "P2")]
    assert list(r1.byes.values_list("member__last_name", "kind")) == [("P5", ByeKind.PAIRING)]
    with pytest.raises(TournamentRefused):
        services.round_pair(tournament=t)  # round 1 has no results yet
    finish(r1, Result.WHITE_WINS, Result.DRAW)
    p5 = t.players.get(member__last_name="P5")
    services.bye_request(player=p5, round_number=2, kind=ByeKind.HALF)
    services.player_withdraw(player=t.players.get(member__last_name="P4"), from_round=2)
    r2 = services.round_pair(tournament=t)
    # P5 (half-point bye) and P4 (withdrawn) sit out; P1 (1), P2 (½), P3 (0) remain: P1-P2, P3 PAB.
    assert sorted(boards(r2)[0]) == ["P1", "P2"]
    assert set(r2.byes.values_list("member__last_name", "kind")) == {
        ("P5", ByeKind.HALF), ("P3", ByeKind.PAIRING)}


def test_requested_bye_only_before_pairing():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    register(t, [2000, 1900, 1800, 1700])
    services.round_pair(tournament=t)
    with pytest.raises(TournamentRefused):
        services.bye_request(player=t.players.first(), round_number=1)
    assert Bye.objects.count() == 0


def test_unpair_and_repair_until_results():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    register(t, [2000, 1900, 1800, 1700])
    r1 = services.round_pair(tournament=t)
    services.round_unpair(round=r1)
    assert r1.games.count() == 0
    r1 = services.round_pair(tournament=t)
    assert r1.number == 1 and r1.games.count() == 2
    finish(r1, Result.WHITE_WINS)
    with pytest.raises(TournamentRefused):
        services.round_unpair(round=r1)
    assert r1.games.count() == 2


def test_manual_pairing_change_swaps_with_other_board_and_bye():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    m = register(t, [2000, 1900, 1800, 1700, 1600])
    r1 = Round.objects.get(pk=services.round_pair(tournament=t).pk)
    board1 = r1.games.get(board=1)  # P1-P3
    services.game_pairing_change(game=board1, white=m[0], black=m[1])  # P2 comes from board 2
    assert sorted(boards(r1)) == [("P1", "P2"), ("P4", "P3")]
    board1 = r1.games.get(white=m[0])
    services.game_pairing_change(game=board1, white=m[0], black=m[4])  # P5 had the PAB
    assert sorted(boards(r1)) == [("P1", "P5"), ("P4", "P3")]
    assert r1.byes.get().member == m[1]
    with pytest.raises(TournamentRefused):
        services.game_pairing_change(game=r1.games.first(), white=m[0], black=m[0])
    finish(r1, Result.DRAW)
    with pytest.raises(TournamentRefused):
        services.game_pairing_change(game=r1.games.get(white=m[3]), white=m[2], black=m[3])


def test_a_requested_bye_does_not_pass_to_the_displaced_player():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    m = register(t, [2000, 1900, 1800, 1700, 1600])
    player5 = t.players.get(member=m[4])
    services.bye_request(player=player5, round_number=1, kind=ByeKind.HALF)
    r1 = Round.objects.get(pk=services.round_pair(tournament=t).pk)
    assert r1.byes.get(member=m[4]).kind == ByeKind.HALF
    board1 = r1.games.get(board=1)
    with pytest.raises(TournamentRefused) as refused, translation.override("en"):
        services.game_pairing_change(game=board1, white=board1.white, black=m[4])
    assert [refused.value.message] == [f"{m[4]} asked for a bye in this round; remove the bye first."]
    assert r1.byes.get(member=m[4]).kind == ByeKind.HALF
    assert r1.games.get(pk=board1.pk).black == board1.black  # nothing changed

def test_team_round_robin_and_lineups():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    club = ClubFactory()
    teams = [TeamFactory(tournament=t, club=club, name=f"T{i}", start_rank=i) for i in range(1, 5)]
    rnd = services.round_pair(tournament=t)
    matches = list(TeamMatch.objects.filter(round=rnd).order_by("number"))
    assert [(m.home_team.name, m.away_team.name) for m in matches] == [("T1", "T4"), ("T2", "T3")]
    home = [MemberFactory(club=club) for _ in range(4)]
    away = [MemberFactory(club=club) for _ in range(4)]
    services.lineup_set(match=matches[0], team=teams[0], members=home)
    assert matches[0].games.count() == 0  # waits for the other lineup
    services.lineup_set(match=matches[0], team=teams[3], members=away)
    games = list(Game.objects.filter(team_match=matches[0]).order_by("board"))
    assert [(g.board, g.white, g.black) for g in games] == [
        (1, home[0], away[0]), (2, away[1], home[1]), (3, home[2], away[2]), (4, away[3], home[3])]
    with pytest.raises(TournamentRefused):
        services.lineup_set(match=matches[0], team=teams[1], members=home)


def test_late_entry_in_swiss_is_paired_from_the_next_round():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    register(t, [2000, 1900, 1800, 1700])
    r1 = services.round_pair(tournament=t)
    finish(r1, Result.WHITE_WINS, Result.WHITE_WINS)
    late = services.player_register(tournament=t, member=MemberFactory(last_name="Late", fide_rating=2500))
    assert late.start_rank == 5  # ranks are not renumbered once pairing started
    r2 = services.round_pair(tournament=t)
    seated = {g.white.last_name for g in r2.games.all()} | {g.black.last_name for g in r2.games.all()}
    seated |= set(r2.byes.values_list("member__last_name", flat=True))
    assert "Late" in seated and len(seated) == 5


def test_manual_change_takes_both_players_of_another_board():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    m = register(t, [2000, 1900, 1800, 1700])
    r1 = services.round_pair(tournament=t)  # P1-P3, P4-P2
    services.game_pairing_change(game=r1.games.get(board=1), white=m[3], black=m[1])
    # P4 and P2 both leave board 2, where the displaced P1 and P3 take their places.
    assert boards(r1) == [("P4", "P2"), ("P1", "P3")]


def test_swiss_initial_colour_black_gives_player_1_black_in_round_1():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3, initial_colour="b")
    register(t, [2000, 1900, 1800, 1700])
    r1 = services.round_pair(tournament=t)
    # The mirror of the default (P1-P3, P4-P2): FIDE C.04.3 E.5 draws round 1 from player 1's colour.
    assert boards(r1) == [("P3", "P1"), ("P2", "P4")]


def test_round_robin_games_of_a_withdrawn_player_are_forfeits():
    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    register(t, [2000, 1900, 1800, 1700])
    services.round_pair(tournament=t)
    services.player_withdraw(player=t.players.get(member__last_name="P4"), from_round=2)
    for name in ("P2", "P3"):
        services.player_withdraw(player=t.players.get(member__last_name=name), from_round=3)
    r2 = services.round_pair(tournament=t)
    r3 = services.round_pair(tournament=t)

    def played(rnd):
        return [(g.white.last_name, g.black.last_name, g.result, g.rated_result, g.is_rateable)
                for g in rnd.games.order_by("board")]

    # Berger table for 4: round 2 4-3, 1-2; round 3 2-4, 3-1.
    assert played(r2) == [("P4", "P3", "-+", "-+", False), ("P1", "P2", "", "", False)]
    assert played(r3) == [("P2", "P4", "--", "--", False), ("P3", "P1", "-+", "-+", False)]


def test_team_create_numbers_teams_in_order_of_entry():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    club = ClubFactory()
    first = services.team_create(tournament=t, name="  SK Eins ", club=club)
    second = services.team_create(tournament=t, name="SK Zwei")
    assert [(first.name, first.club, first.start_rank), (second.name, second.club, second.start_rank)] == [
        ("SK Eins", club, 1), ("SK Zwei", None, 2)]


@pytest.mark.parametrize(("kind", "name", "message"), [
    (TournamentKind.TEAM, "sk eins", "This tournament already has a team of this name."),
    (TournamentKind.TEAM, "   ", "A team needs a name."),
    (TournamentKind.SWISS, "SK Drei", "Teams can only be added to a team competition."),
])
def test_team_create_refusals(kind, name, message):
    t = TournamentFactory(kind=kind)
    Team.objects.create(tournament=t, name="SK Eins", start_rank=1)
    with translation.override("en"), pytest.raises(TournamentRefused) as error:
        services.team_create(tournament=t, name=name)
    assert [error.value.message] == [message]
    assert t.teams.count() == 1


def test_team_create_refused_after_pairing_and_translated():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    for name in ("A", "B"):
        services.team_create(tournament=t, name=name)
    services.round_pair(tournament=t)
    with translation.override("de-at"), pytest.raises(TournamentRefused) as error:
        services.team_create(tournament=t, name="C")
    assert [error.value.message] == ["Nach der Auslosung der ersten Runde können keine Mannschaften "
                                    "mehr hinzugefügt werden."]
    assert t.teams.count() == 2


def test_team_players_assign_changes_only_what_differs():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    a, b = (services.team_create(tournament=t, name=name) for name in ("A", "B"))
    p1, p2, p3 = (TournamentPlayerFactory(tournament=t, start_rank=rank, team=a) for rank in (1, 2, 3))
    count = services.team_players_assign(tournament=t, assignments={p1.pk: a.pk, p2.pk: b.pk, p3.pk: None})
    assert count == 2
    assert dict(t.players.values_list("pk", "team")) == {p1.pk: a.pk, p2.pk: b.pk, p3.pk: None}


def test_team_players_assign_refuses_foreign_players_and_teams():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    team = services.team_create(tournament=t, name="A")
    player = TournamentPlayerFactory(tournament=t, start_rank=1)
    other = TournamentFactory(kind=TournamentKind.TEAM)
    foreign_team = services.team_create(tournament=other, name="X")
    foreign_player = TournamentPlayerFactory(tournament=other, start_rank=1)
    with translation.override("en"):
        with pytest.raises(TournamentRefused) as error:
            services.team_players_assign(tournament=t, assignments={player.pk: team.pk,
                                                                    foreign_player.pk: team.pk})
        assert [error.value.message] == [
            "Only players registered in this tournament can be put into its teams."]
        with pytest.raises(TournamentRefused) as error:
            services.team_players_assign(tournament=t, assignments={player.pk: foreign_team.pk})
        assert [error.value.message] == ["Players can only be put into teams of this tournament."]
    player.refresh_from_db()
    foreign_player.refresh_from_db()
    assert (player.team, foreign_player.team) == (None, None)


def test_withdrawal_drops_requested_byes_of_unpaired_rounds_and_refuses_new_ones():
    # A withdrawn player scores nothing more: a ½ bye asked for round 3 must not count after a
    # withdrawal from round 2, and no bye can be asked for a round after the withdrawal.
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=4)
    register(t, [2000, 1900, 1800, 1700, 1600, 1500])
    p6 = t.players.get(member__last_name="P6")
    p5 = t.players.get(member__last_name="P5")
    services.bye_request(player=p6, round_number=1, kind=ByeKind.HALF)
    services.bye_request(player=p6, round_number=3, kind=ByeKind.HALF)
    services.bye_request(player=p5, round_number=3, kind=ByeKind.ZERO)
    services.round_pair(tournament=t)
    services.player_withdraw(player=p6, from_round=2)
    assert sorted(Bye.objects.exclude(kind=ByeKind.PAIRING).values_list(
        "round__number", "member__last_name", "kind")) == [(1, "P6", ByeKind.HALF), (3, "P5", ByeKind.ZERO)]
    with translation.override("de-at"), pytest.raises(TournamentRefused) as exc:
        services.bye_request(player=p6, round_number=4, kind=ByeKind.FULL)
    assert [exc.value.message] == ["P6, Vorname" + p6.member.first_name.removeprefix("Vorname")
                                  + " hat sich ab Runde 2 zurückgezogen."]
    assert Bye.objects.filter(member=p6.member, round__number=4).count() == 0
