"""The division table on plain data, against a hand-worked division of four teams on four
boards (Berliner Wertung: boards weigh 4, 3, 2, 1)."""

import pytest

from clubrating.leagues.standings import MatchResult, Scoring, berlin_points, cross_table, division_table

W, D, L = (1.0, 0.0), (0.5, 0.5), (0.0, 1.0)

# Every team ends with 3 match points and 6 board points; B and D have 15.5 Berlin points, A and
# C 14.5; B beat D, A and C drew.
MATCHES = [
    MatchResult("A", "B", (W, D, L, W)),  # 2.5–1.5, BW 6.5–3.5
    MatchResult("C", "D", (L, L, W, W)),  # 2–2, BW 3–7
    MatchResult("A", "C", (L, D, W, D)),  # 2–2, BW 4–6
    MatchResult("B", "D", (W, W, L, D)),  # 2.5–1.5, BW 7.5–2.5
    MatchResult("D", "A", (D, W, L, W)),  # 2.5–1.5, BW 6–4
    MatchResult("B", "C", (L, W, D, D)),  # 2–2, BW 4.5–5.5
]
TEAMS = ["A", "B", "C", "D"]


def summary(rows):
    return [(r.rank, r.team, r.match_points, r.board_points, r.berlin, r.direct) for r in rows]


def test_berlin_points_weigh_board_b_of_n_with_n_plus_1_minus_b_a_draw_half():
    assert berlin_points((W, D, L, W), home=True) == 4 + 1.5 + 0 + 1
    assert berlin_points((W, D, L, W), home=False) == 0 + 1.5 + 2 + 0


def test_the_default_criteria_rank_by_berlin_scoring_then_the_direct_encounter():
    rows = division_table(TEAMS, MATCHES, criteria=["MP", "BP", "BW", "DE"])
    assert summary(rows) == [
        (1, "B", 3, 6.0, 15.5, 2),  # beat D
        (2, "D", 3, 6.0, 15.5, 0),
        (3, "A", 3, 6.0, 14.5, 1),  # drew with C: the tie stays
        (3, "C", 3, 6.0, 14.5, 1),
    ]
    assert [(r.played, r.won, r.drawn, r.lost) for r in rows] == [
        (3, 1, 1, 1),
        (3, 1, 1, 1),
        (3, 1, 1, 1),
        (3, 0, 3, 0),
    ]
    assert rows[0].criteria == {"MP": 3, "BP": 6.0, "BW": 15.5, "DE": 2}
    assert rows[0].board_points_against == 6.0


def test_without_the_direct_encounter_equal_teams_share_the_rank_in_draw_order():
    rows = division_table(TEAMS, MATCHES, criteria=["MP", "BW"])
    assert [(r.rank, r.team) for r in rows] == [(1, "B"), (1, "D"), (3, "A"), (3, "C")]


def test_matches_won_as_a_criterion():
    rows = division_table(TEAMS, MATCHES, criteria=["MP", "W"])
    assert [(r.rank, r.team, r.won) for r in rows] == [(1, "A", 1), (1, "B", 1), (1, "D", 1), (4, "C", 0)]


def test_the_criteria_order_is_the_seasons():
    # Berlin scoring before match points: then 3:3 match points do not matter.
    rows = division_table(TEAMS, MATCHES[:2], criteria=["BW", "MP"])
    assert [(r.rank, r.team, r.berlin, r.match_points) for r in rows] == [
        (1, "D", 7, 1),
        (2, "A", 6.5, 2),
        (3, "B", 3.5, 0),
        (4, "C", 3, 1),
    ]


def test_the_direct_encounter_is_skipped_while_the_tied_teams_have_not_all_met():
    matches = [MatchResult("A", "B", (W, W, W, L)), MatchResult("C", "D", (W, L, W, W))]
    rows = division_table(TEAMS, matches, criteria=["MP", "BP", "DE", "BW"])
    # A and C: 2 match points, 3 board points each, never met: Berlin scoring decides (8 : 7).
    assert summary(rows) == [
        (1, "A", 2, 3.0, 9.0, None),
        (2, "C", 2, 3.0, 7.0, None),
        (3, "D", 0, 1.0, 3.0, None),
        (4, "B", 0, 1.0, 1.0, None),
    ]


def test_the_seasons_match_points_and_teams_without_a_match():
    rows = division_table(["A", "B", "C"], [MatchResult("A", "B", (D, D))], scoring=Scoring(3, 1, 0))
    assert [(r.rank, r.team, r.played, r.match_points, r.board_points) for r in rows] == [
        (1, "A", 1, 1, 1.0),
        (1, "B", 1, 1, 1.0),
        (3, "C", 0, 0, 0),
    ]
    rows = division_table(["A", "B"], [MatchResult("A", "B", (W, D))], scoring=Scoring(3, 1, 0))
    assert [(r.team, r.match_points) for r in rows] == [("A", 3), ("B", 0)]


def test_an_unknown_criterion_is_refused():
    with pytest.raises(ValueError, match="XX"):
        division_table(TEAMS, MATCHES, criteria=["MP", "XX"])


def test_cross_table_lists_each_teams_board_points_against_each_opponent():
    cells = cross_table([*MATCHES, MatchResult("B", "A", (W, W, W, D))])
    assert cells[("A", "B")] == [2.5, 0.5]
    assert cells[("B", "A")] == [1.5, 3.5]
    assert cells[("C", "D")] == [2.0]
    assert ("A", "A") not in cells


# Five teams on two boards; A, B and C end level on match points (5 with 2/1/0, 7 with 3/1/0).
# Among themselves A beat B, drew with C, B beat C; by board points the order is the reverse.
FIVE = [
    MatchResult("A", "B", (W, D)),  # 1.5–0.5
    MatchResult("A", "C", (W, L)),  # 1–1
    MatchResult("B", "C", (W, D)),  # 1.5–0.5
    MatchResult("A", "D", (L, L)),  # 0–2
    MatchResult("A", "E", (W, D)),  # 1.5–0.5
    MatchResult("B", "D", (W, D)),  # 1.5–0.5
    MatchResult("B", "E", (D, D)),  # 1–1
    MatchResult("C", "D", (W, W)),  # 2–0
    MatchResult("C", "E", (W, W)),  # 2–0
    MatchResult("D", "E", (D, D)),  # 1–1
]


@pytest.mark.parametrize(
    ("scoring", "points", "direct"),
    [(Scoring(), 5, {"A": 3, "B": 2, "C": 1}), (Scoring(3, 1, 0), 7, {"A": 4, "B": 3, "C": 1})],
)
def test_the_direct_encounter_of_three_counts_only_their_matches_among_themselves(scoring, points, direct):
    rows = division_table(list("ABCDE"), FIVE, scoring=scoring, criteria=["MP", "DE", "BP"])
    assert [(r.rank, r.team, r.match_points, r.direct, r.board_points) for r in rows[:3]] == [
        (1, "A", points, direct["A"], 4.0),
        (2, "B", points, direct["B"], 4.5),
        (3, "C", points, direct["C"], 5.5),
    ]
    # Board points before the direct encounter: the reverse order, the direct encounter unused.
    rows = division_table(list("ABCDE"), FIVE, scoring=scoring, criteria=["MP", "BP", "DE"])
    assert [(r.rank, r.team, r.direct) for r in rows[:3]] == [(1, "C", None), (2, "B", None), (3, "A", None)]


def test_berlin_points_of_empty_boards_and_an_absent_team():
    # Four boards: board 2 left empty by the away team (won by the home team), board 4 empty on
    # both sides (nobody scores): 4 + 3 + 0 + 0 = 7 for the home team, 2 for the away team.
    assert berlin_points((W, W, L, (0.0, 0.0)), home=True) == 7
    assert berlin_points((W, W, L, (0.0, 0.0)), home=False) == 2
    # A team that did not appear loses every board: the other team gets all 10 (n(n+1)/2).
    assert berlin_points((W, W, W, W), home=True) == 10
