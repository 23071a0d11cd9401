"""FIDE tie-breaks (C.07, editions 2023 and 2026) on hand-checked examples and on the two real tournaments in
tests/data/pgn. The values are computed by hand from the games; the arithmetic is written next to
each assertion."""

import io
import re

import chess.pgn
import pytest

from clubrating.tournaments.pairing.history import (
    ABSENT,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    PAB,
    PLAYED,
    RoundRecord,
)
from clubrating.tournaments.tiebreaks import Participant, compute_standings, parse_tiebreaks
from tests.paths import PGN_DIR

R = RoundRecord


def pgn_participants(name: str) -> tuple[list[Participant], dict[int, str]]:
    """Players numbered in order of appearance, one RoundRecord per round from the headers.

    These files carry headers only; python-chess then reads the whole file as one game, so the
    text is split at the blank line before each header block first."""
    text = (PGN_DIR / name).read_text(encoding="utf-8")
    ids: dict[str, int] = {}
    ratings: dict[int, int] = {}
    results: dict[tuple[int, int], RoundRecord] = {}
    rounds = 0
    for chunk in re.split(r"\n\s*\n(?=\[)", text):
        game = chess.pgn.read_game(io.StringIO(chunk))
        headers = game.headers
        number = int(headers["Round"].split(".")[0])
        rounds = max(rounds, number)
        white, black = (ids.setdefault(headers[s], len(ids) + 1) for s in ("White", "Black"))
        ratings[white], ratings[black] = int(headers["WhiteElo"]), int(headers["BlackElo"])
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[headers["Result"]]
        results[(white, number)] = R(PLAYED, points, black, "w")
        results[(black, number)] = R(PLAYED, 1.0 - points, white, "b")
    participants = [
        Participant(pid, ratings[pid], [results[(pid, n)] for n in range(1, rounds + 1)])
        for pid in ids.values()
    ]
    return participants, {pid: player for player, pid in ids.items()}


def standings(name: str, codes: str, round_robin: bool = False) -> dict[str, tuple]:
    participants, names = pgn_participants(name)
    rows = compute_standings(participants, parse_tiebreaks(codes), round_robin=round_robin)
    return {names[r.id]: (r.rank, r.points, r.tiebreaks) for r in rows}


def test_uzchess_cup_2025_masters_round_robin():
    table = standings("uzchess-cup-2025.pgn", "DE,SB,WIN,BWG,KS,ARO,TPR", round_robin=True)
    # Three players on 5.5/9. DE among them: Praggnanandhaa beat Sindarov (r4) and Abdusattorov
    # (r9) = 2; Abdusattorov and Sindarov drew each other = 0.5 each, so SB separates them.
    # SB Praggnanandhaa: wins against Vokhidov 4 + Sindarov 5.5 + Erigaisi 5 + Abdusattorov 5.5
    #   = 20, draws against Aravindh 2.5 + Yakubboev 4.5 + Nepomniachtchi 3.5 = 10.5 / 2 = 5.25.
    # SB Abdusattorov: wins 4 + 4.5 + 2.5 + 4.5 = 15.5; draws (5.5 + 5 + 3.5) / 2 = 7 -> 22.5.
    # SB Sindarov: wins 3.5 + 4.5 + 2.5 = 10.5; draws (5.5 + 4 + 5 + 4.5 + 4.5) / 2 = 11.75.
    # KS (opponents with >= 4.5): Praggnanandhaa 0.5 (Yakubboev) + 1 + 0 + 0 + 1 + 1 = 3.5.
    # ARO Praggnanandhaa: (2749+2644+2659+2710+2691+2714+2757+2782+2767) / 9 = 2719.2 -> 2719;
    # TPR = 2719 + dp(5.5/9 = 0.61) = 2719 + 80 = 2799.
    assert table["Praggnanandhaa R"] == (1, 5.5, [2.0, 25.25, 4, 1, 3.5, 2719, 2799])
    assert table["Abdusattorov, Nodirbek"] == (2, 5.5, [0.5, 22.5, 4, 0, 3.0, 2719, 2799])
    assert table["Sindarov, Javokhir"] == (3, 5.5, [0.5, 22.25, 3, 1, 3.0, 2726, 2806])
    assert table["Erigaisi Arjun"] == (4, 5.0, [0.0, 21.5, 2, 2, 3.0, 2718, 2761])
    assert table["Aravindh, Chithambaram VR."] == (10, 2.5, [0.0, 11.25, 0, 0, 1.5, 2721, 2555])


def test_womens_world_rapid_2024_swiss():
    table = standings("womens-world-rapid-2024.pgn", "BH/C1,BH,ARO,ARO/C1,TPR")
    # Humpy's opponents' final scores: 6 + 5 + 4 + 4 + 6 + 5 + 7 + 6.5 + 8 + 8 + 7.5 = 67 (BH);
    # Cut-1 drops the lowest (4): 63. Their ratings sum to 25634: ARO 25634/11 = 2330.4 -> 2330;
    # without the lowest-rated (2194): 23440/10 = 2344. TPR = 2330 + dp(8.5/11 = 0.77) = 2330 + 211.
    assert table["Koneru, Humpy"] == (1, 8.5, [63.0, 67.0, 2330, 2344, 2541])
    # The 8-point group in tie-break order (BH/C1): 75, 72, 67, 65, 64, 63.5.
    group = sorted((v[0], k, v[2][0]) for k, v in table.items() if v[1] == 8.0)
    assert [(rank, name, bh) for rank, name, bh in group] == [
        (2, "Ju, Wenjun", 75.0), (3, "Lagno, Kateryna", 72.0), (4, "Tan, Zhongyi", 67.0),
        (5, "Dronavalli, Harika", 65.0), (6, "Khamdamova, Afruza", 64.0),
        (7, "Kosteniuk, Alexandra", 63.5),
    ]
    # Ju Wenjun: 5.5+7+7.5+6+6.5+8+8+8+8.5+8+7.5 = 80.5; cut the 5.5 -> 75.
    assert table["Ju, Wenjun"][2][:2] == [75.0, 80.5]


def small_swiss() -> list[Participant]:
    """Five players, three rounds, with every kind of unplayed round.

    R1: 1-2 1-0, 3-4 ½, 5 PAB.  R2: 1-3 1-0, 2-5 +/- (5 did not come), 4 half-point bye.
    R3: 5-1 0-1, 2-3 0-1, 4 zero-point bye.  Scores: 1: 3, 2: 1, 3: 1.5, 4: 1, 5: 1."""
    return [
        Participant(1, 2000, [R(PLAYED, 1, 2, "w"), R(PLAYED, 1, 3, "w"), R(PLAYED, 1, 5, "b")]),
        Participant(2, 1900, [R(PLAYED, 0, 1, "b"), R(FORFEIT_WIN, 1, 5, "w"), R(PLAYED, 0, 3, "w")]),
        Participant(3, 1800, [R(PLAYED, 0.5, 4, "w"), R(PLAYED, 0, 1, "b"), R(PLAYED, 1, 2, "b")]),
        Participant(4, 1700, [R(PLAYED, 0.5, 3, "b"), R(ABSENT, 0.5), R(ABSENT, 0.0)]),
        Participant(5, 1600, [R(PAB, 1), R(FORFEIT_LOSS, 0, 2, "b"), R(PLAYED, 0, 1, "w")]),
    ]


def test_unplayed_rounds_follow_the_2023_rules():
    rows = compute_standings(small_swiss(), parse_tiebreaks("BH,BH/C1,SB,WIN,WON,BPG,BWG,ARO,KS"))
    got = {r.id: (r.rank, r.points, r.tiebreaks) for r in rows}
    # Player 4 withdrew after a half-point and a zero-point bye: for his opponents his score
    # counts those VURs (after his last non-VUR round) as draws: 0.5 + 0.5 + 0.5 = 1.5.
    # 1: BH 1 (pl. 2) + 1.5 + 1 = 3.5, Cut-1 drops a 1 -> 2.5; SB = 1 + 1.5 + 1; ARO (1900+1800+1600)/3.
    #    KS: only player 3 has >= 50 % (1.5 of 3): 1 point.
    assert got[1] == (1, 3, [3.5, 2.5, 3.5, 3, 3, 1, 1, 1767, 1])
    # 3: BH = 1.5 (pl. 4, adjusted) + 3 + 1 = 5.5; SB = 1.5 x ½ + 3 x 0 + 1 x 1 = 1.75.
    assert got[3] == (2, 1.5, [5.5, 4.5, 1.75, 1, 1, 2, 1, 1867, 0])
    # 2: the forfeit win counts as a game against a dummy with his own score (1): BH 3 + 1 + 1.5;
    #    it is no VUR, so Cut-1 drops the lowest value (1). WIN counts it, WON does not.
    assert got[2] == (3, 1, [5.5, 4.5, 1.0, 1, 0, 1, 0, 1900, 0])
    # 5: PAB and forfeit loss count his own score 1 each: BH 1 + 1 + 3 = 5; Cut-1 removes the VUR
    #    (the forfeit loss). SB: 1 x 1 (PAB) + 1 x 0 + 3 x 0 = 1.
    assert got[5] == (4, 1, [5.0, 4.0, 1.0, 1, 0, 0, 0, 2000, 0])
    # 4: BH 1.5 + 1 + 1 (two byes at his own score); Cut-1 removes a bye (VUR) -> 2.5.
    #    SB: 1.5 x ½ + 1 x ½ + 1 x 0 = 1.25. KS: ½ against player 3.
    assert got[4] == (5, 1, [3.5, 2.5, 1.25, 0, 0, 1, 0, 1800, 0.5])


def test_median_and_cut_two():
    rows = compute_standings(small_swiss(), parse_tiebreaks("BH/M1,BH/C2"))
    got = {r.id: r.tiebreaks for r in rows}
    # Player 1's opponents scored 1, 1.5, 1: Median-1 drops 1 and 1.5 -> 1; Cut-2 drops both 1s.
    assert got[1] == [1.0, 1.5]
    # Player 3: 1.5, 3, 1: Median-1 keeps 1.5; Cut-2 keeps 3.
    assert got[3] == [1.5, 3.0]
    # Player 4: 1.5 and two byes (VURs) at 1: Median-1 drops a bye and the 1.5; Cut-2 both byes.
    assert got[4] == [1.0, 1.5]


def test_direct_encounter_in_a_swiss_needs_a_decisive_score():
    # 1 and 2 tied; they never met: DE cannot separate them, the next tie-break does.
    rows = compute_standings(small_swiss(), parse_tiebreaks("DE,BH"))
    assert [(r.id, r.rank, r.tiebreaks) for r in rows] == [
        (1, 1, [0.0, 3.5]), (3, 2, [0.0, 5.5]), (2, 3, [0.0, 5.5]), (5, 4, [0.0, 5.0]),
        (4, 5, [0.0, 3.5]),
    ]


@pytest.mark.parametrize("bad", ["XX", "BH/C9", "SB/Q", "ARO/C3", "KS/C1"])
def test_unknown_codes_rejected(bad):
    with pytest.raises(ValueError, match=re.escape(bad)):
        parse_tiebreaks(f"BH,{bad}")


def test_codes_parse():
    specs = parse_tiebreaks(" bh/c1, BH ,ARO/C1,,DE")
    assert [s.label for s in specs] == ["BH/C1", "BH", "ARO/C1", "DE"]


def test_koya_in_an_odd_round_robin_counts_the_games_a_player_can_play():
    """Five players, five rounds, each player has one free round: the maximum score is 4, so
    Koya counts opponents with at least 2 points (not 2.5)."""
    from clubrating.tournaments.pairing.history import ABSENT

    results = {  # (a, b): points of a; every pair meets once
        (1, 2): 1, (1, 3): 1, (1, 4): 0, (1, 5): 0.5,
        (2, 3): 1, (2, 4): 0, (2, 5): 1,
        (3, 4): 1, (3, 5): 1,
        (4, 5): 0,
    }
    rounds = {p: [] for p in range(1, 6)}
    for (a, b), score in results.items():
        rounds[a].append(R(PLAYED, score, b, "w"))
        rounds[b].append(R(PLAYED, 1 - score, a, "b"))
    for p in rounds:
        rounds[p].append(R(ABSENT, 0.0))  # the free round
    participants = [Participant(p, 1500, rounds[p]) for p in rounds]
    # Points: 1 = 2.5, 2 = 2, 3 = 2, 4 = 2, 5 = 1.5. Opponents with >= 2 points: 1, 2, 3, 4.
    rows = {r.id: r for r in compute_standings(participants, parse_tiebreaks("KS"), round_robin=True)}
    assert {p: rows[p].points for p in rows} == {1: 2.5, 2: 2.0, 3: 2.0, 4: 2.0, 5: 1.5}
    # Player 1: vs 2 (1) + vs 3 (1) + vs 4 (0) = 2; player 5: vs 1 (0.5) + 2 (0) + 3 (0) + 4 (1) = 1.5.
    assert rows[1].tiebreaks == [2.0]
    assert rows[5].tiebreaks == [1.5]


# A single round robin of six with draws, worked by hand (points of the row player):
#
#        1    2    3    4    5    6   total
#   1    .   ½    1    ½    ½    0    2.5
#   2    ½    .   1    0    1    0    2.5
#   3    0    0    .   1    1    ½    2.5
#   4    ½    1    0    .   ½    0    2.0
#   5    ½    0    0    ½    .   1    2.0
#   6    1    1    ½    1    0    .    3.5
ROUND_ROBIN_SIX = {
    (1, 2): 0.5, (1, 3): 1.0, (1, 4): 0.5, (1, 5): 0.5, (1, 6): 0.0,
    (2, 3): 1.0, (2, 4): 0.0, (2, 5): 1.0, (2, 6): 0.0,
    (3, 4): 1.0, (3, 5): 1.0, (3, 6): 0.5,
    (4, 5): 0.5, (4, 6): 0.0,
    (5, 6): 1.0,
}


def round_robin_six() -> list[Participant]:
    """The table above, one game per round (the order of the rounds does not matter here)."""
    rounds: dict[int, list[RoundRecord]] = {pid: [] for pid in range(1, 7)}
    for (white, black), points in ROUND_ROBIN_SIX.items():
        rounds[white].append(R(PLAYED, points, black, "w"))
        rounds[black].append(R(PLAYED, 1.0 - points, white, "b"))
    return [Participant(pid, 1800, rounds[pid]) for pid in rounds]


def test_direct_encounter_in_a_round_robin_with_draws_and_two_tied_groups():
    rows = compute_standings(round_robin_six(), parse_tiebreaks("DE,WIN,SB,KS"), round_robin=True)
    table = {row.id: (row.rank, row.points, row.tiebreaks) for row in rows}
    # DE (art. 6), the points among the tied players:
    #   {1, 2, 3} on 2.5: 1 = ½ (v 2) + 1 (v 3) = 1.5; 2 = ½ + 1 = 1.5; 3 = 0 + 0 = 0. Between 1
    #   and 2, still tied, their draw leaves them tied (½ each), so WIN decides: 2 won twice
    #   (v 3, v 5), 1 once (v 3).
    #   {4, 5} on 2.0 drew each other: ½ each. WIN 1 each (4 v 2, 5 v 6); SB decides.
    #   6 alone on 3.5: 0.
    # SB: 6 = 2.5 + 2.5 + ½·2.5 + 2.0 = 8.25; 1 = ½·2.5 + 2.5 + ½·2 + ½·2 = 5.75;
    #   2 = ½·2.5 + 2.5 + 2 = 5.75; 3 = 2 + 2 + ½·3.5 = 5.75; 4 = ½·2.5 + 2.5 + ½·2 = 4.75;
    #   5 = ½·2.5 + ½·2 + 3.5 = 5.75.
    # KS (opponents with at least 2.5 of 5: 1, 2, 3, 6): 6 = 1 + 1 + ½ = 2.5; 1 = ½ + 1 + 0 = 1.5;
    #   2 = ½ + 1 + 0 = 1.5; 3 = 0 + 0 + ½ = 0.5; 4 = ½ + 1 + 0 + 0 = 1.5; 5 = ½ + 0 + 0 + 1 = 1.5.
    assert table == {
        6: (1, 3.5, [0.0, 3, 8.25, 2.5]),
        2: (2, 2.5, [1.5, 2, 5.75, 1.5]),
        1: (3, 2.5, [1.5, 1, 5.75, 1.5]),
        3: (4, 2.5, [0.0, 2, 5.75, 0.5]),
        5: (5, 2.0, [0.5, 1, 5.75, 1.5]),
        4: (6, 2.0, [0.5, 1, 4.75, 1.5]),
    }
    assert [row.id for row in rows] == [6, 2, 1, 3, 5, 4]


def test_direct_encounter_with_a_group_of_three_that_all_drew():
    # Another six-player round robin:
    #        1    2    3    4    5    6   total
    #   1    .   ½    ½    1    1    0    3.0
    #   2    ½    .   ½    1    ½    ½    3.0
    #   3    ½    ½    .   ½    1    ½    3.0
    #   4    0    0    ½    .   ½    1    2.0
    #   5    0    ½    0    ½    .   1    2.0
    #   6    1    ½    ½    0    0    .    2.0
    results = {
        (1, 2): 0.5, (1, 3): 0.5, (1, 4): 1.0, (1, 5): 1.0, (1, 6): 0.0,
        (2, 3): 0.5, (2, 4): 1.0, (2, 5): 0.5, (2, 6): 0.5,
        (3, 4): 0.5, (3, 5): 1.0, (3, 6): 0.5,
        (4, 5): 0.5, (4, 6): 1.0,
        (5, 6): 1.0,
    }
    rounds: dict[int, list[RoundRecord]] = {pid: [] for pid in range(1, 7)}
    for (white, black), points in results.items():
        rounds[white].append(R(PLAYED, points, black, "w"))
        rounds[black].append(R(PLAYED, 1.0 - points, white, "b"))
    rows = compute_standings([Participant(pid, 1800, rounds[pid]) for pid in rounds],
                             parse_tiebreaks("DE,WIN"), round_robin=True)
    # {1, 2, 3} on 3.0 drew among themselves: DE 1 each, still tied; WIN: 1 won twice (v 4, v 5),
    # 2 and 3 once each (v 4; v 5), so they share second place.
    # {4, 5, 6} on 2.0: 4 = ½ (v 5) + 1 (v 6) = 1.5; 5 = ½ + 1 = 1.5; 6 = 0. 4 and 5 drew each
    # other, so they stay tied (½ each among the two), WIN 1 each: they share fourth place.
    assert [(row.id, row.rank, row.points, row.tiebreaks) for row in rows] == [
        (1, 1, 3.0, [1.0, 2]), (2, 2, 3.0, [1.0, 1]), (3, 2, 3.0, [1.0, 1]),
        (4, 4, 2.0, [1.5, 1]), (5, 4, 2.0, [1.5, 1]), (6, 6, 2.0, [0.0, 1]),
    ]


# --- the 2026 edition (FIDE Play-Off and Tie-Break Regulations C.07, effective 1 March 2026) ------
#
# The 2026 text has no worked examples of its own; these tournaments are checked by hand, the
# arithmetic next to each value. A Swiss of six players, four rounds:
#   R1  A-B 1-0, C-D ½-½, E wins by forfeit against F
#   R2  C-A ½-½, B-E 0-1, D half-point bye, F pairing-allocated bye
#   R3  A-E 1-0, F-C 0-1, B-D ½-½
#   R4  D-A 1-0, B-C 1-0, E pairing-allocated bye, F withdrawn (not paired)
# Points: A 2.5, B 1.5, C 2, D 2.5, E 3, F 1. Adjusted for opponents (16.3): F's round after his
# withdrawal counts as a draw: 0 + 1 + 0 + ½ = 1.5; everyone else as scored.

from clubrating.tournaments.tiebreaks import (  # noqa: E402 - the 2026 part of this module
    EDITION_2023,
    EDITION_2026,
    UnknownTiebreak,
    edition_for,
)

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6


def swiss_2026_example() -> list[Participant]:
    rounds = {
        A: [R(PLAYED, 1, B, "w"), R(PLAYED, 0.5, C, "b"), R(PLAYED, 1, E, "w"), R(PLAYED, 0, D, "b")],
        B: [R(PLAYED, 0, A, "b"), R(PLAYED, 0, E, "w"), R(PLAYED, 0.5, D, "w"), R(PLAYED, 1, C, "w")],
        C: [R(PLAYED, 0.5, D, "w"), R(PLAYED, 0.5, A, "w"), R(PLAYED, 1, F, "b"), R(PLAYED, 0, B, "b")],
        D: [R(PLAYED, 0.5, C, "b"), R(ABSENT, 0.5), R(PLAYED, 0.5, B, "b"), R(PLAYED, 1, A, "w")],
        E: [R(FORFEIT_WIN, 1, F), R(PLAYED, 1, B, "b"), R(PLAYED, 0, A, "b"), R(PAB, 1)],
        F: [R(FORFEIT_LOSS, 0, E), R(PAB, 1), R(PLAYED, 0, C, "w"), R(ABSENT, 0)],
    }
    ratings = {A: 1900, B: 1800, C: 1700, D: 2000, E: 1600, F: 1500}
    return [Participant(pid, ratings[pid], line, number=pid) for pid, line in rounds.items()]


def table_of(participants, codes, edition, round_robin=False):
    rows = compute_standings(participants, parse_tiebreaks(codes, edition, round_robin=round_robin),
                             round_robin=round_robin, edition=edition)
    return {r.id: (r.rank, r.points, r.tiebreaks) for r in rows}


def test_edition_follows_the_start_date():
    import datetime

    assert edition_for(datetime.date(2026, 2, 28)) == EDITION_2023
    assert edition_for(datetime.date(2026, 3, 1)) == EDITION_2026


def test_2026_caps_the_dummy_opponent_of_unplayed_rounds():
    table = table_of(swiss_2026_example(), "BH,SB,BH/C1", EDITION_2026)
    # 16.4.2: byes are capped at a draw's points times the rounds, ½ × 4 = 2.
    # D (2.5): C 2 + dummy min(2.5, 2) = 2 + B 1.5 + A 2.5 = 8; SB 1 + 1 + 0.75 + 2.5 = 5.25;
    #   Cut-1 drops the VUR (the half-point bye, 2 >= the lowest 1.5, art. 16.5): 6.
    assert table[D] == (3, 2.5, [8.0, 5.25, 6.0])
    # 16.4.1: E's forfeit win is capped at F's adjusted score 1.5; the PAB at 2:
    # BH 1.5 + 1.5 + 2.5 + 2 = 7.5; SB 1.5 + 1.5 + 0 + 2 = 5; Cut-1 drops a 1.5: 6.
    assert table[E] == (1, 3.0, [7.5, 5.0, 6.0])
    # F (1): forfeit loss min(1, E 3) = 1, PAB min(1, 2) = 1, C 2, withdrawal 1: BH 5, SB 1 (the
    # PAB's 1 × 1); Cut-1 drops a VUR worth 1: 4.
    assert table[F] == (6, 1.0, [5.0, 1.0, 4.0])
    # Played games only: A B 1.5 + C 2 + E 3 + D 2.5 = 9; SB 1.5 + 1 + 3 + 0 = 5.5; Cut-1 7.5.
    assert table[A] == (2, 2.5, [9.0, 5.5, 7.5])
    assert table[B] == (5, 1.5, [10.0, 3.25, 8.0])
    assert table[C] == (4, 2.0, [8.0, 4.0, 6.5])


def test_2023_behaviour_is_kept_for_old_tournaments():
    table = table_of(swiss_2026_example(), "BH,SB,BH/C1", EDITION_2023)
    # 16.3 of 2023: the dummy has the participant's own final score, uncapped.
    # D: 2 + 2.5 + 1.5 + 2.5 = 8.5; SB 1 + 1.25 + 0.75 + 2.5 = 5.5; Cut-1 drops the VUR 2.5: 6.
    assert table[D] == (3, 2.5, [8.5, 5.5, 6.0])
    # E: 3 + 1.5 + 2.5 + 3 = 10; SB 3 + 1.5 + 0 + 3 = 7.5; Cut-1 drops B's 1.5: 8.5.
    assert table[E] == (1, 3.0, [10.0, 7.5, 8.5])
    assert table[F] == (6, 1.0, [5.0, 1.0, 4.0])


def test_2026_new_tiebreaks_std_tpn_rtng_and_ps_rep():
    table = table_of(swiss_2026_example(), "STD,REP,PS,PS/C1,TPN,RTNG", EDITION_2026)
    # STD: E forfeit win 1 + win 1 + loss 0 + PAB (more than a draw) 1 = 3; REP 4 (no VUR);
    # PS 1 + 2 + 2 + 3 = 8, without round 1: 7.
    assert table[E] == (1, 3.0, [3.0, 4, 8.0, 7.0, 5, 1600])
    # F: forfeit loss 0 + PAB 1 + loss 0 + withdrawn 0 = 1; REP 4 - 2 VURs = 2; PS 0 + 1 + 1 + 1.
    assert table[F] == (6, 1.0, [1.0, 2, 3.0, 3.0, 6, 1500])
    # A and D tie on 2.5, STD 2.5, REP 4 / 3: D's half-point bye is a VUR, so A is second.
    assert table[A][0] == 2 and table[D][0] == 3
    assert table[D][2][:2] == [2.5, 3]


def test_2026_pairing_number_and_rating_break_what_is_left():
    players = swiss_2026_example()
    by_number = table_of(players, "TPN", EDITION_2026)
    # A (1) and D (4) are tied on 2.5 points: the lower pairing number first (art. 7.8).
    assert (by_number[A][0], by_number[D][0]) == (2, 3)
    by_rating = table_of(players, "RTNG", EDITION_2026)
    # The higher rating first (art. 10.6): D 2000 before A 1900.
    assert (by_rating[D][0], by_rating[A][0]) == (2, 3)
    assert by_rating[D][2] == [2000]


def test_new_codes_are_refused_for_a_2023_tournament():
    for code in ("STD", "TPN", "RTNG"):
        with pytest.raises(UnknownTiebreak):
            parse_tiebreaks(code, EDITION_2023)


def test_2026_refuses_buchholz_in_a_round_robin():
    with pytest.raises(UnknownTiebreak, match="BH/C1"):
        parse_tiebreaks("SB,BH/C1", EDITION_2026, round_robin=True)
    assert [s.label for s in parse_tiebreaks("SB,BH/C1", EDITION_2023, round_robin=True)] == ["SB", "BH/C1"]


def round_robin_with_forfeit() -> list[Participant]:
    # R1 1-4 1-0, 2-3 ½-½; R2 3 wins by forfeit against 4, 1-2 0-1; R3 2-4 ½-½, 3-1 ½-½.
    # Points: 1: 1.5, 2: 2, 3: 2, 4: 0.5.
    return [
        Participant(1, None, [R(PLAYED, 1, 4, "w"), R(PLAYED, 0, 2, "w"), R(PLAYED, 0.5, 3, "b")], 1),
        Participant(2, None, [R(PLAYED, 0.5, 3, "w"), R(PLAYED, 1, 1, "b"), R(PLAYED, 0.5, 4, "w")], 2),
        Participant(3, None, [R(PLAYED, 0.5, 2, "b"), R(FORFEIT_WIN, 1, 4, "b"), R(PLAYED, 0.5, 1, "w")], 3),
        Participant(4, None, [R(PLAYED, 0, 1, "b"), R(FORFEIT_LOSS, 0, 3, "w"), R(PLAYED, 0.5, 2, "b")], 4),
    ]


def test_2026_round_robin_forfeit_counts_as_the_game_it_replaced():
    new = table_of(round_robin_with_forfeit(), "DE,SB,WON,BPG", EDITION_2026, round_robin=True)
    old = table_of(round_robin_with_forfeit(), "DE,SB,WON,BPG", EDITION_2023, round_robin=True)
    # 2 and 3 drew each other (DE ½ each). SB of 3, 2026 (15.2): 2's 2 × ½ + 4's 0.5 × 1 (the
    # forfeit) + 1's 1.5 × ½ = 2.25, and the forfeit win is a won game with black (WON 1, BPG 2);
    # 2023: the forfeit adds nothing: 1 + 0.75 = 1.75, WON 0, BPG 1.
    assert new[3] == (2, 2.0, [0.5, 2.25, 1, 2])
    assert old[3] == (2, 2.0, [0.5, 1.75, 0, 1])
    # 2: SB 3's 2 × ½ + 1's 1.5 × 1 + 4's 0.5 × ½ = 2.75 in both editions: first on SB.
    assert new[2] == (1, 2.0, [0.5, 2.75, 1, 1])
    assert old[2] == (1, 2.0, [0.5, 2.75, 1, 1])
    # 4's forfeit loss stays unplayed for its own counts: BPG 2 (rounds 1 and 3 only).
    assert new[4][2][3] == 2


def test_2026_direct_encounter_averages_repeated_games():
    # A beat B and drew the return game; C beat A and lost to B; each sat out one round.
    players = [
        Participant(A, None, [R(PLAYED, 1, B, "w"), R(PLAYED, 0.5, B, "b"), R(PLAYED, 0, C, "w"),
                              R(ABSENT, 0)]),
        Participant(B, None, [R(PLAYED, 0, A, "b"), R(PLAYED, 0.5, A, "w"), R(ABSENT, 0),
                              R(PLAYED, 1, C, "w")]),
        Participant(C, None, [R(ABSENT, 0.5), R(ABSENT, 0), R(PLAYED, 1, A, "b"), R(PLAYED, 0, B, "b")]),
    ]
    new = table_of(players, "DE", EDITION_2026)
    # 6.1.2: A vs B (1 + ½) / 2 = 0.75, vs C 0; B 0.25 + 1 = 1.25; C 1 + 0 = 1: B, C, A.
    assert {pid: (rank, values) for pid, (rank, _pts, values) in new.items()} == {
        B: (1, [1.25]), C: (2, [1.0]), A: (3, [0.75])}
    old = table_of(players, "DE", EDITION_2023)
    # 2023 adds both games: A 1.5, B 1.5, C 1; A and B again among themselves: A 1.5, B 0.5.
    assert {pid: (rank, values) for pid, (rank, _pts, values) in old.items()} == {
        A: (1, [1.5]), B: (2, [1.5]), C: (3, [1.0])}


def test_fore_buchholz_counts_the_last_round_as_drawn():
    table = table_of(swiss_2026_example(), "FB,FB/C1", EDITION_2026)
    # Art. 8.3: the games of round 4 count as draws. FB scores: A 1 + ½ + 1 + ½ = 3, B 0 + 0 + ½ +
    # ½ = 1, C ½ + ½ + 1 + ½ = 2.5, D ½ + ½ + ½ + ½ = 2; E (PAB) 3 and F (withdrawn) 1.5 unchanged.
    # A: B 1 + C 2.5 + E 3 + D 2 = 8.5. D (own FB score 2): C 2.5 + bye min(2, ½ × 4) = 2 + B 1 +
    # A 3 = 8.5; Cut-1 drops the VUR (the half-point bye): 6.5.
    assert table[A][2] == [8.5, 7.5]
    assert table[D][2] == [8.5, 6.5]
    # E: forfeit win min(3, F 1.5) + B 1 + A 3 + PAB min(3, 2) = 7.5; F: min(1, E 3) + min(1, 2) +
    # C 2.5 + min(1, 2) = 5.5; B: A 3 + E 3 + D 2 + C 2.5 = 10.5; C: D 2 + A 3 + F 1.5 + B 1 = 7.5.
    assert [table[pid][2][0] for pid in (B, C, E, F)] == [10.5, 7.5, 7.5, 5.5]


def test_average_of_opponents_buchholz():
    # BH by 2026 (test above): A 9, B 10, C 8, D 8, E 7.5, F 5; over the games played only.
    table = table_of(swiss_2026_example(), "AOB", EDITION_2026)
    assert {pid: row[2] for pid, row in table.items()} == {
        A: [8.38],  # (10 + 8 + 7.5 + 8) / 4 = 8.375
        B: [8.13],  # (9 + 7.5 + 8 + 8) / 4 = 8.125
        C: [8.0],  # (8 + 9 + 5 + 10) / 4
        D: [9.0],  # (8 + 10 + 9) / 3
        E: [9.5],  # (10 + 9) / 2
        F: [8.0],  # C only
    }


def test_perfect_performance_and_the_opponents_averages():
    table = table_of(swiss_2026_example(), "PTP,TPR,APRO,APPO", EDITION_2026)
    # PTP (art. 10.3), FIDE's table of expected scores: A scored 2.5 against 1800, 1700, 1600 and
    # 2000. At 1877 the expectations are .61 + .73 + .83 + .33 = 2.50; at 1876 .60 + ... = 2.49.
    # TPR: average 1775 + dp(.63) 95 = 1870.
    # B: 1.5 against 1900, 1600, 2000, 1700: 1694 (.24 + .63 + .14 + .49); TPR 1800 − 87 = 1713.
    # C: 2 against 2000, 1900, 1500, 1800: 1809 (.25 + .38 + .86 + .51); TPR 1800.
    # D: 2 against 1700, 1800, 1900: 1926 (.79 + .67 + .54); TPR 1800 + dp(.67) 125 = 1925.
    # E: 1 against 1800, 1900: 1847 (.57 + .43); TPR 1850. F: 0 against 1700: 1700 − 800 = 900.
    # APRO / APPO average the opponents' TPR / PTP over the games played:
    # A (B, C, E, D): (1713 + 1800 + 1850 + 1925) / 4 = 1822, (1694 + 1809 + 1847 + 1926) / 4 = 1819.
    # D (C, B, A): 5383 / 3 = 1794.3 -> 1794, 5380 / 3 = 1793.3 -> 1793.
    # E (B, A): 3583 / 2 = 1791.5 -> 1792 (half up), 3571 / 2 = 1785.5 -> 1786.
    assert table[A][2] == [1877, 1870, 1822, 1819]
    assert table[B][2][:2] == [1694, 1713]
    assert table[C][2][:2] == [1809, 1800]
    assert table[D][2] == [1926, 1925, 1794, 1793]
    assert table[E][2] == [1847, 1850, 1792, 1786]
    assert table[F][2] == [900, 900, 1800, 1809]


def test_full_score_perfect_performance_and_unrated_opponents():
    players = [
        Participant(1, 2000, [R(PLAYED, 1, 2, "w"), R(PLAYED, 1, 3, "b")], 1),
        Participant(2, 1800, [R(PLAYED, 0, 1, "b"), R(PLAYED, 0.5, 3, "w")], 2),
        Participant(3, None, [R(PLAYED, 0, 1, "w"), R(PLAYED, 0.5, 2, "b")], 3),
    ]
    table = table_of(players, "PTP,APPO", EDITION_2026)
    # Only games against rated opponents count (art. 10). 1: 1 from 1800 (3 is unrated), a full
    # score: 1800 + 800 = 2600. 2: 0 from 2000 (the draw was against 3): 2000 − 800 = 1200.
    # 3: ½ from 2000 and 1800: 1694 (.14 + .36 = .50; 1693 gives .14 + .35).
    # APPO: 1 (2, 3) (1200 + 1694) / 2 = 1447; 2 (1, 3) (2600 + 1694) / 2 = 2147; 3 (1, 2) 1900.
    assert {pid: row[2] for pid, row in table.items()} == {
        1: [2600, 1447], 2: [1200, 2147], 3: [1694, 1900]}


def test_new_buchholz_family_codes_parse_and_stay_out_of_a_2026_round_robin():
    assert [s.label for s in parse_tiebreaks("FB/C1,AOB,PTP,APRO,APPO", EDITION_2023)] == [
        "FB/C1", "AOB", "PTP", "APRO", "APPO"]
    for code in ("FB", "AOB"):
        with pytest.raises(UnknownTiebreak):
            parse_tiebreaks(code, EDITION_2026, round_robin=True)
    with pytest.raises(UnknownTiebreak):
        parse_tiebreaks("AOB/C1", EDITION_2026)


def test_cuts_and_medians_of_the_rating_average_and_median_two():
    table = table_of(swiss_2026_example(), "ARO,ARO/C1,ARO/C2,ARO/M1,ARO/M2,BH/M1,BH/M2", EDITION_2026)
    # A met 1800, 1700, 1600 and 2000: 7100 / 4 = 1775; Cut-1 without 1600: 5500 / 3 = 1833.3;
    # Cut-2 without 1600 and 1700: 1900; Median-1 without 1600 and 2000: 1750; Median-2 leaves none.
    assert table[A][2][:5] == [1775, 1833, 1900, 1750, 0]
    # D's BH values: C 2, the half-point bye 2 (a VUR), B 1.5, A 2.5. Median-1 drops the VUR and
    # A: 3.5; Median-2 also B and C: 0.
    assert table[D][2][5:] == [3.5, 0.0]
    players = [
        Participant(1, 2000, [R(PLAYED, 1, 2, "w"), R(PLAYED, 1, 3, "b")], 1),
        Participant(2, 1800, [R(PLAYED, 0, 1, "b"), R(PLAYED, 0.5, 3, "w")], 2),
        Participant(3, None, [R(PLAYED, 0, 1, "w"), R(PLAYED, 0.5, 2, "b")], 3),
    ]
    # 2 met 2000 and an unrated player: the unrated one is what Cut-1 drops (ARO 2000 either way),
    # Cut-2 then drops 2000 too.
    assert table_of(players, "ARO,ARO/C1,ARO/C2", EDITION_2026)[2][2] == [2000, 2000, 0]


def test_fore_buchholz_before_the_final_round_is_buchholz():
    # Four rounds of a five-round tournament: round 4 is not the last, so nothing counts as drawn.
    rows = compute_standings(swiss_2026_example(), parse_tiebreaks("FB,BH", EDITION_2026),
                             edition=EDITION_2026, final_round=5)
    assert {r.id: r.tiebreaks for r in rows} == {
        A: [9.0, 9.0], B: [10.0, 10.0], C: [8.0, 8.0], D: [8.0, 8.0], E: [7.5, 7.5], F: [5.0, 5.0]}
    # Once the fourth round is the last: the values of test_fore_buchholz_counts_the_last_round_as_drawn.
    rows = compute_standings(swiss_2026_example(), parse_tiebreaks("FB", EDITION_2026),
                             edition=EDITION_2026, final_round=4)
    assert {r.id: r.tiebreaks[0] for r in rows}[A] == 8.5
