import datetime

import pytest

from clubrating.tournaments import selectors, services
from clubrating.tournaments.models import ByeKind, Result, TeamMatch, TournamentKind
from clubrating.tournaments.tiebreaks import UnknownTiebreak
from tests.factories import (
    ByeFactory,
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = pytest.mark.django_db


def round_robin(size: int):
    t = TournamentFactory(kind=TournamentKind.ROUND_ROBIN, rounds_count=size - 1 + size % 2)
    services.players_register(tournament=t, members=[
        MemberFactory(last_name=f"P{i}", fide_rating=2100 - 10 * i) for i in range(1, size + 1)])
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for n in range(t.rounds_count):
        rnd = services.round_pair(tournament=t)
        for i, game in enumerate(rnd.games.all()):
            game.result = game.rated_result = results[(i + n) % 3]
            game.save()
    return t


@pytest.mark.parametrize("size", [4, 12])
def test_standings_queries_do_not_grow(size, django_assert_max_num_queries):
    t = round_robin(size)
    # Players, their members (by key), games, byes.
    with django_assert_max_num_queries(4):
        rows = selectors.tournament_standings(tournament=t, codes="SB,DE,WIN,BWG,KS,ARO,TPR")
        assert len(rows) == size
        assert [r.player.member.last_name for r in rows]  # names come with the same queries
    with django_assert_max_num_queries(4):
        table = selectors.tournament_crosstable(tournament=t)
        assert len(table) == size and len(table[0].cells) == t.rounds_count
    rnd = t.rounds.get(number=1)
    with django_assert_max_num_queries(4):
        rows = selectors.round_pairings(round=rnd)
        assert [r.white.member.last_name for r in rows if r.white]


def test_standings_values_four_players():
    t = round_robin(4)
    # R1 P1-P4 1-0, P2-P3 ½; R2 P4-P3 ½, P1-P2 0-1; R3 P2-P4 0-1, P3-P1 1-0.
    # P3 2: SB 1.5 x ½ + 1.5 x ½ + 1 x 1 = 2.5. P4 1.5: 0 + 2 x ½ + 1.5 x 1 = 2.5.
    # P2 1.5: 2 x ½ + 1 x 1 + 0 = 2. P1 1: 1.5 x 1 = 1.5.
    rows = selectors.tournament_standings(tournament=t, codes=["SB", "WIN"])
    assert [(r.rank, r.player.member.last_name, r.points, r.tiebreaks) for r in rows] == [
        (1, "P3", 2.0, [2.5, 1]), (2, "P4", 1.5, [2.5, 1]), (3, "P2", 1.5, [2.0, 1]),
        (4, "P1", 1.0, [1.5, 1]),
    ]


def test_crosstable_and_pairings_show_byes():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=2)
    services.players_register(tournament=t, members=[MemberFactory(fide_rating=2000 - i) for i in range(3)])
    rnd = services.round_pair(tournament=t)
    rows = selectors.round_pairings(round=rnd)
    assert [(r.board, r.white.start_rank, r.black and r.black.start_rank, r.bye_kind) for r in rows] == [
        (1, 1, 2, ""), (2, 3, None, ByeKind.PAIRING)]
    cells = {row.player.start_rank: row.cells[0] for row in selectors.tournament_crosstable(tournament=t)}
    assert (cells[3].code, cells[3].points) == ("U", 1.0)
    assert (cells[1].opponent, cells[1].colour, cells[1].points) == (2, "w", None)  # no result yet


def test_team_standings(django_assert_max_num_queries):
    t = TournamentFactory(kind=TournamentKind.TEAM)
    club = ClubFactory()
    teams = [TeamFactory(tournament=t, club=club, name=f"T{i}", start_rank=i) for i in range(1, 5)]
    rnd = services.round_pair(tournament=t)
    # T1-T4 3:1, T2-T3 2:2.
    for match, scores in zip(TeamMatch.objects.filter(round=rnd).order_by("number"),
                             [[Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.DRAW],
                              [Result.WHITE_WINS, Result.WHITE_WINS, Result.BLACK_WINS, Result.BLACK_WINS]]):
        home = [MemberFactory(club=club) for _ in range(4)]
        away = [MemberFactory(club=club) for _ in range(4)]
        services.lineup_set(match=match, team=match.home_team, members=home)
        services.lineup_set(match=match, team=match.away_team, members=away)
        for game, result in zip(match.games.order_by("board"), scores):
            game.result = game.rated_result = result
            game.save()
    with django_assert_max_num_queries(4):
        rows = selectors.team_standings(tournament=t)
    # T1: boards 1 (home white wins), 2 (away white... home black wins), ½, ½ = 3; T4 1.
    # SB: opponent's match points x board points against it: T1 0 x 3 = 0; T4 2 x 1 = 2;
    # T2 and T3: 1 x 2 = 2.
    assert [(r.rank, r.team.name, r.match_points, r.board_points, r.sonneborn_berger) for r in rows] == [
        (1, "T1", 2, 3.0, 0.0), (2, "T2", 1, 2.0, 2.0), (2, "T3", 1, 2.0, 2.0), (4, "T4", 0, 1.0, 2.0)]
    assert teams[0].name == "T1"
    assert [r.tiebreaks for r in rows] == [[3.0, 0.0], [2.0, 2.0], [2.0, 2.0], [1.0, 2.0]]
    # The director's own list: matches won, then EGGSB (opponent's game points x own game points:
    # T1 1 x 3 = 3, T2 and T3 2 x 2 = 4, T4 3 x 1 = 3). T2 and T3 drew each other: DE 1 each.
    t.team_tiebreaks = "WIN,EGGSB,DE"
    t.save()
    assert selectors.team_tiebreak_codes(tournament=t) == ["WIN", "EGGSB", "DE"]
    rows = selectors.team_standings(tournament=t)
    assert [(r.rank, r.team.name, r.tiebreaks) for r in rows] == [
        (1, "T1", [1, 3.0, None]), (2, "T2", [0, 4.0, 1]), (2, "T3", [0, 4.0, 1]), (4, "T4", [0, 3.0, None])]


def test_an_empty_board_is_lost_by_forfeit_once_the_match_is_over():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    for i in range(1, 3):
        TeamFactory(tournament=t, name=f"T{i}", start_rank=i)
    match = TeamMatch.objects.get(round=services.round_pair(tournament=t))
    home = [MemberFactory() for _ in range(4)]
    away = [MemberFactory() for _ in range(2)]
    services.lineup_set(match=match, team=match.home_team, members=[home[0], None, home[2], home[3]])
    services.lineup_set(match=match, team=match.away_team, members=away)
    # Board 2: only the away team has a player; boards 3 and 4: only the home team; board 1 is played.
    assert sorted(match.games.values_list("board", flat=True)) == [1]
    game = match.games.get()
    game.result = game.rated_result = Result.DRAW
    game.save()
    running = selectors.match_score(match)
    assert (running.home_points, running.away_points, running.finished) == (0.5, 0.5, True)
    assert [b.result for b in running.boards] == ["½–½", "", "", ""]
    over = selectors.match_score(match, over=True)
    assert (over.home_points, over.away_points, over.finished) == (2.5, 1.5, True)
    assert [b.result for b in over.boards] == ["½–½", "−–+", "+–−", "+–−"]


def test_a_match_without_any_lineup_is_finished_only_once_over():
    t = TournamentFactory(kind=TournamentKind.TEAM)
    for i in range(1, 3):
        TeamFactory(tournament=t, name=f"T{i}", start_rank=i)
    match = TeamMatch.objects.get(round=services.round_pair(tournament=t))
    services.lineup_set(match=match, team=match.home_team, members=[MemberFactory(), MemberFactory()])
    assert not selectors.match_score(match).finished
    over = selectors.match_score(match, over=True)
    assert (over.home_points, over.away_points, over.finished) == (2.0, 0.0, True)


def test_requested_bye_for_a_later_round_does_not_count_yet():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    services.players_register(tournament=t, members=[MemberFactory(fide_rating=2000 - i) for i in range(4)])
    rnd = services.round_pair(tournament=t)
    for game in rnd.games.all():
        game.result = game.rated_result = Result.DRAW
        game.save()
    services.bye_request(player=t.players.get(start_rank=1), round_number=3)
    rows = selectors.tournament_standings(tournament=t, codes="")
    assert [r.points for r in rows] == [0.5, 0.5, 0.5, 0.5]
    assert all(len(row.cells) == 1 for row in selectors.tournament_crosstable(tournament=t))


def test_last_paired_round_number_ignores_rounds_with_only_requested_byes():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    services.players_register(tournament=t, members=[MemberFactory(fide_rating=2000 - i) for i in range(4)])
    assert selectors.last_paired_round_number(tournament=t) == 0
    services.bye_request(player=t.players.get(start_rank=1), round_number=2)  # creates round 2
    assert selectors.last_paired_round_number(tournament=t) == 0
    services.round_pair(tournament=t)
    assert selectors.last_paired_round_number(tournament=t) == 1


def test_a_forfeit_without_colours_has_none_in_the_crosstable_and_the_history():
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=2)
    services.players_register(tournament=t, members=[MemberFactory(fide_rating=2000 - i) for i in range(4)])
    rnd = services.round_pair(tournament=t)
    first, second = rnd.games.order_by("board")
    first.result = first.rated_result = Result.WHITE_FORFEIT_WIN
    first.has_colours = False  # as imported from "  3 - +"
    first.save()
    second.result = second.rated_result = Result.BLACK_FORFEIT_WIN  # paired in the app: colours kept
    second.save()
    cells = {row.player.start_rank: row.cells[0] for row in selectors.tournament_crosstable(tournament=t)}
    assert [(r, cells[r].opponent, cells[r].colour, cells[r].code) for r in (1, 2, 3, 4)] == [
        (1, 3, "", "+"), (2, 4, "b", "+"), (3, 1, "", "−"), (4, 2, "w", "−")]
    players = list(t.players.order_by("start_rank"))
    history = selectors.player_histories(t, players, before_round=2)
    assert [history[r][0].colour for r in (1, 2, 3, 4)] == [None, "b", None, "w"]


def test_points_by_round_is_the_one_tally_of_pairings_crosstables_and_trf():
    from clubrating.interchange.trf_export import tournament_export_trf
    from clubrating.tournaments.views._pairings import points_before
    from clubrating.tournaments.views._tables import crosstable
    from tests.factories import ByeFactory, GameFactory, RoundFactory, TournamentPlayerFactory

    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3)
    a, b, c, d, e = (MemberFactory(last_name=name) for name in "ABCDE")
    for rank, member in enumerate((a, b, c, d, e), start=1):
        TournamentPlayerFactory(tournament=t, member=member, start_rank=rank)
    one, two, three = (RoundFactory(tournament=t, number=n) for n in (1, 2, 3))
    GameFactory(round=one, board=1, white=a, black=b, result=Result.DRAW)
    GameFactory(round=one, board=2, white=c, black=d, result=Result.BLACK_FORFEIT_WIN)
    ByeFactory(round=one, member=e, kind=ByeKind.PAIRING)
    GameFactory(round=two, board=1, white=d, black=a, result=Result.WHITE_WINS)
    GameFactory(round=two, board=2, white=e, black=b, result=Result.NOT_PLAYED)  # still running
    ByeFactory(round=two, member=c, kind=ByeKind.HALF)
    ByeFactory(round=three, member=a, kind=ByeKind.HALF)  # requested for a round not paired yet
    assert selectors.points_by_round(tournament=t) == {
        a.pk: {1: 0.5, 2: 0.0}, b.pk: {1: 0.5}, c.pk: {1: 0.0, 2: 0.5}, d.pk: {1: 1.0, 2: 1.0},
        e.pk: {1: 1.0},
    }
    assert selectors.points_by_round(tournament=t, ahead=True)[a.pk] == {1: 0.5, 2: 0.0, 3: 0.5}
    # Pairings show the points before each round; the crosstable and the standings the totals.
    before = points_before(t)
    assert before[2] == {a.pk: 0.5, b.pk: 0.5, c.pk: 0.0, d.pk: 1.0, e.pk: 1.0}
    assert before[3] == {a.pk: 0.5, b.pk: 0.5, c.pk: 0.5, d.pk: 2.0, e.pk: 1.0}
    totals = {a.pk: 0.5, b.pk: 0.5, c.pk: 0.5, d.pk: 2.0, e.pk: 1.0}
    assert {line.player.member_id: line.points for line in crosstable(t)} == totals
    standings = selectors.tournament_standings(tournament=t)
    assert {row.player.member_id: row.points for row in standings} == totals
    # TRF16 lists the bye granted for round 3 and counts it (column 81-84: the points); round 2,
    # still running, is written as the round to pair, so D's win in it is not counted there.
    lines = {line[14:47].split(",")[0]: line for line in tournament_export_trf(tournament=t).splitlines()
             if line.startswith("001")}
    assert lines["A"][80:84].strip() == "1.0" and lines["D"][80:84].strip() == "1.0"
    assert lines["C"][80:84].strip() == "0.5"  # the half-point bye asked for round 2 is kept


def test_one_table_of_result_symbols():
    from clubrating.interchange.trf_export import _BYE_CODES, _CODES
    from clubrating.tournaments.models import BYE_SYMBOLS, RESULT_SYMBOLS

    assert RESULT_SYMBOLS[Result.BLACK_FORFEIT_WIN] == ("−", "+")
    # TRF16 spells the same symbols its own way: "=" a draw, "-" a forfeit loss.
    assert _CODES[Result.DRAW] == ("=", "=") and _CODES[Result.BLACK_FORFEIT_WIN] == ("-", "+")
    assert _BYE_CODES is BYE_SYMBOLS


def test_tables_read_standings_and_crosstable_at_once(django_assert_max_num_queries):
    t = round_robin(4)
    # As above, but P3-P1 of round 3 still waits for its result: P1 1 (won R1), P2 1.5, P3 1, P4 1.5.
    from clubrating.tournaments.models import Game

    Game.objects.filter(round__tournament=t, round__number=3, white__last_name="P3").update(
        result=Result.NOT_PLAYED, rated_result=Result.NOT_PLAYED)

    with django_assert_max_num_queries(4):
        standings, crosstable = selectors.tournament_tables(tournament=t, codes=["WIN"])

    # P2 and P4 share the lead on points and wins (starting-rank order within the rank).
    assert [(r.rank, r.player.member.last_name, r.points, r.tiebreaks) for r in standings] == [
        (1, "P2", 1.5, [1]), (1, "P4", 1.5, [1]), (3, "P1", 1.0, [1]), (4, "P3", 1.0, [0]),
    ]
    assert standings == selectors.tournament_standings(tournament=t, codes=["WIN"])
    assert crosstable == selectors.tournament_crosstable(tournament=t)
    first = {row.player.member.last_name: row for row in crosstable}
    # The pending game is in the crosstable (opponent and colour), without points or symbol.
    assert [(c.opponent, c.colour, c.points, c.code) for c in first["P1"].cells] == [
        (4, "w", 1.0, "1"), (2, "w", 0.0, "0"), (3, "b", None, "")]
    assert (first["P1"].points, first["P3"].points) == (1.0, 1.0)


def swiss_with_byes(start: datetime.date):
    """Three players, three rounds: R1 A-B 1-0, C pairing-allocated bye; R2 C-A ½-½, B half-point
    bye; R3 B-C 0-1, A full-point bye. A 2.5, B 0.5, C 2.5."""
    t = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=3, start_date=start, tiebreaks="BH,SB")
    a, b, c = (MemberFactory(last_name=name) for name in "ABC")
    for rank, member in enumerate((a, b, c), start=1):
        TournamentPlayerFactory(tournament=t, member=member, start_rank=rank)
    r1, r2, r3 = (RoundFactory(tournament=t, number=n) for n in (1, 2, 3))
    GameFactory(round=r1, board=1, white=a, black=b, result=Result.WHITE_WINS)
    ByeFactory(round=r1, member=c, kind=ByeKind.PAIRING)
    GameFactory(round=r2, board=1, white=c, black=a, result=Result.DRAW)
    ByeFactory(round=r2, member=b, kind=ByeKind.HALF)
    GameFactory(round=r3, board=1, white=b, black=c, result=Result.BLACK_WINS)
    ByeFactory(round=r3, member=a, kind=ByeKind.FULL)
    return t


def standing_values(t, codes=None):
    rows = selectors.tournament_standings(tournament=t, codes=codes)
    return [(r.rank, r.player.member.last_name, r.points, r.tiebreaks) for r in rows]


def test_a_tournament_started_before_march_2026_keeps_the_2023_tiebreaks():
    t = swiss_with_byes(datetime.date(2026, 2, 28))
    assert t.tiebreak_rules == "2023"
    # The dummy opponent has the player's own score: A 0.5 + 2.5 + 2.5 = 5.5, SB 0.5 + 1.25 + 2.5;
    # C 2.5 + 2.5 + 0.5 = 5.5, SB 2.5 + 1.25 + 0.5; B 2.5 + 0.5 + 2.5 = 5.5, SB 0.25.
    assert standing_values(t) == [
        (1, "A", 2.5, [5.5, 4.25]), (1, "C", 2.5, [5.5, 4.25]), (3, "B", 0.5, [5.5, 0.25])]
    with pytest.raises(UnknownTiebreak):
        selectors.tournament_standings(tournament=t, codes="BH,TPN")


def test_a_tournament_started_from_march_2026_follows_the_2026_tiebreaks():
    t = swiss_with_byes(datetime.date(2026, 3, 1))
    assert t.tiebreak_rules == "2026"
    # 16.4.2: A's full-point bye and C's PAB count at most ½ x 3 rounds = 1.5: BH 0.5 + 2.5 + 1.5;
    # SB 0.5 + 1.25 + 1.5. TPN then puts A (1) before C (3).
    assert standing_values(t, "BH,SB,TPN") == [
        (1, "A", 2.5, [4.5, 3.25, 1]), (2, "C", 2.5, [4.5, 3.25, 3]), (3, "B", 0.5, [5.5, 0.25, 2])]


def test_fore_buchholz_counts_the_final_round_as_drawn_once_it_is_the_last():
    t = swiss_with_byes(datetime.date(2026, 3, 1))
    # Round 3 (B-C 0-1) counts as drawn: B 0 + ½ + ½ = 1, C 1 + ½ + ½ = 2; A (full-point bye,
    # not paired) keeps 2.5. A: B 1 + C 2 + bye min(2.5, 1.5) = 4.5; C (own 2): PAB min(2, 1.5) +
    # A 2.5 + B 1 = 5; B (own 1): A 2.5 + half-point bye min(1, 1.5) + C 2 = 5.5.
    assert standing_values(t, "FB") == [(1, "C", 2.5, [5.0]), (2, "A", 2.5, [4.5]), (3, "B", 0.5, [5.5])]
    # A fourth round to come: round 3 is not the last, FB is BH.
    t.rounds_count = 4
    t.save()
    assert standing_values(t, "FB") == [(1, "A", 2.5, [4.5]), (1, "C", 2.5, [4.5]), (3, "B", 0.5, [5.5])]


def _game_reads(tournament) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        selectors.tournament_version(tournament=tournament)
    return [q["sql"] for q in captured.captured_queries]


@pytest.mark.parametrize("size", [4, 12])
def test_version_reads_do_not_grow(size):
    t = round_robin(size)
    MemberFactory.create_batch(size * 3)  # members and games of others do not count
    round_robin(6)
    # Rounds, games, byes, players.
    assert len(_game_reads(t)) == 4


@pytest.mark.db_specific
def test_version_reads_the_games_by_the_round_index():
    """The games are read through their round index, not by walking all the federation's games
    (PostgreSQL did so for the join to the rounds ordered by the games' key: 119,328 rows read for a
    league division at 20,000 members)."""
    from django.db import connection

    t = round_robin(6)
    round_robin(4)
    reads = [sql for sql in _game_reads(t) if 'FROM "tournaments_game"' in sql]
    assert len(reads) == 1
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # A few rows are read faster in one sweep; without it, the plan a big table gets.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + reads[0])
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + reads[0])
        plan = " ".join(str(col) for row in cursor.fetchall() for col in row)
    assert "tournaments_game_round_id" in plan, plan
    assert "SCAN tournaments_game" not in plan and "tournaments_game_pkey" not in plan, plan
    assert "JOIN" not in reads[0]
