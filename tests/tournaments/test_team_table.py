"""The one team-table engine (a league division's and another team competition's): team
Sonneborn-Berger (FIDE C.07, EMGSB) as a criterion, hand-checked."""

from clubrating.leagues import standings as league_standings
from clubrating.tournaments.team_table import MatchResult, division_table

# Four teams, two boards, a round robin:
#   R1 A-B 2:0, C-D 1½:½;  R2 A-C 1:1, B-D 1½:½;  R3 A-D ½:1½, B-C 1:1.
# Match points (2/1/0): A 2 + 1 + 0 = 3, B 0 + 2 + 1 = 3, C 2 + 1 + 1 = 4, D 0 + 0 + 2 = 2.
MATCHES = [
    MatchResult("A", "B", ((1, 0), (1, 0))), MatchResult("C", "D", ((1, 0), (0.5, 0.5))),
    MatchResult("A", "C", ((0.5, 0.5), (0.5, 0.5))), MatchResult("B", "D", ((1, 0), (0.5, 0.5))),
    MatchResult("A", "D", ((0, 1), (0.5, 0.5))), MatchResult("B", "C", ((1, 0), (0, 1))),
]


def test_team_sonneborn_berger_breaks_a_tie_on_match_points():
    table = division_table(["A", "B", "C", "D"], MATCHES, criteria=("MP", "SB"))
    # SB = the opponent's match points x the board points against it:
    # A: B 3 x 2 + C 4 x 1 + D 2 x ½ = 11; B: A 3 x 0 + D 2 x 1½ + C 4 x 1 = 7;
    # C: D 2 x 1½ + A 3 x 1 + B 3 x 1 = 9; D: C 4 x ½ + B 3 x ½ + A 3 x 1½ = 8.
    assert [(r.rank, r.team, r.match_points, r.sonneborn) for r in table] == [
        (1, "C", 4, 9.0), (2, "A", 3, 11.0), (3, "B", 3, 7.0), (4, "D", 2, 8.0)]
    assert table[1].criteria == {"MP": 3, "SB": 11.0}


def test_the_league_table_is_the_same_engine():
    assert league_standings.division_table is division_table
    assert league_standings.MatchResult is MatchResult


def test_extended_sonneborn_berger_variants():
    # Game points: A 2 + 1 + ½ = 3.5, B 0 + 1½ + 1 = 2.5, C 1½ + 1 + 1 = 3.5, D ½ + ½ + 1½ = 2.5.
    # Match points scored in each match: A 2, 1, 0; B 0, 2, 1; C 2, 1, 1; D 0, 0, 2.
    # EMMSB (opponent's MP x own MP): A 3 x 2 + 4 x 1 + 2 x 0 = 10, B 3 x 0 + 2 x 2 + 4 x 1 = 8,
    #   C 2 x 2 + 3 x 1 + 3 x 1 = 10, D 4 x 0 + 3 x 0 + 3 x 2 = 6.
    # EGMSB (opponent's GP x own MP): A 2.5 x 2 + 3.5 = 8.5, B 2.5 x 2 + 3.5 = 8.5,
    #   C 2.5 x 2 + 3.5 + 2.5 = 11, D 3.5 x 2 = 7.
    # EGGSB (opponent's GP x own GP): A 2.5 x 2 + 3.5 x 1 + 2.5 x ½ = 9.75,
    #   B 2.5 x 1½ + 3.5 x 1 = 7.25, C 2.5 x 1½ + 3.5 + 2.5 = 9.75, D 3.5 x ½ + 2.5 x ½ + 3.5 x 1½ = 8.25.
    table = division_table(["A", "B", "C", "D"], MATCHES, criteria=("MP", "EMMSB", "EGMSB", "EGGSB", "EMGSB"))
    assert [(r.rank, r.team, r.criteria) for r in table] == [
        (1, "C", {"MP": 4, "EMMSB": 10, "EGMSB": 11, "EGGSB": 9.75, "EMGSB": 9.0}),
        (2, "A", {"MP": 3, "EMMSB": 10, "EGMSB": 8.5, "EGGSB": 9.75, "EMGSB": 11.0}),
        (3, "B", {"MP": 3, "EMMSB": 8, "EGMSB": 8.5, "EGGSB": 7.25, "EMGSB": 7.0}),
        (4, "D", {"MP": 2, "EMMSB": 6, "EGMSB": 7, "EGGSB": 8.25, "EMGSB": 8.0}),
    ]


def test_team_tiebreak_codes_parse():
    import pytest

    from clubrating.tournaments.tiebreaks import UnknownTiebreak, parse_team_tiebreaks

    assert parse_team_tiebreaks(" gp, emmsb ,DE,win") == ["GP", "EMMSB", "DE", "WIN"]
    for bad in ("GP,GP", "BH", "SB", "EMGSB/C1"):
        with pytest.raises(UnknownTiebreak):
            parse_team_tiebreaks(bad)
