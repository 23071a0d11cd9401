"""Period evaluation: exact cases from the independent audit against the spec."""

import pytest

from ratings.rules import GameIn, PlayerIn, evaluate_period, get_rules


def period(rules, ratings, games, **kwargs):
    players = [PlayerIn(k, *(v if isinstance(v, tuple) else (v,))) for k, v in ratings.items()]
    return evaluate_period(get_rules(rules), players, [GameIn(i, *g) for i, g in enumerate(games)], **kwargs)


@pytest.mark.parametrize(("score", "new"), [(1.0, 2903), (0.0, 2897)])
def test_period_total_of_exactly_2_5_rounds_away_from_zero(score, new):
    # docs/rules.md §1.3: F = (3400 - 2900)^2 / 1e5 = 2.5 (oesb-2012: no reduction); E(0) = 0.5;
    # two games: 2 x 0.5 x 2.5 = +-2.5 -> +-3.
    r = period("oesb-2012", {"a": 2900, "b": 2900, "c": 2900}, [("a", "b", score), ("a", "c", score)])
    assert r.players["a"].change == (2.5 if score else -2.5) and r.players["a"].new_rating == new


def test_fide_2024_half_point_total_and_k_by_rating():
    # 2450 (30+ games: K 10) beats 2260: D 190 -> table 0.75; 10 x 0.25 = +2.5 -> +3.
    # 2260: K 20, 20 x (0 - 0.25) = -5.
    r = period("fide-2024", {"a": (2450, 50), "b": (2260, 50)}, [("a", "b", 1.0)])
    assert (r.players["a"].factor, r.players["a"].change, r.players["a"].new_rating) == (10, 2.5, 2453)
    assert (r.players["b"].factor, r.players["b"].change, r.players["b"].new_rating) == (20, -5.0, 2255)


def test_fide_2024_k_times_games_at_most_700():
    # 18 games at K 40 = 720 > 700: K becomes the largest whole number within, 38 (38 x 18 = 684).
    ratings = {"a": 2000, **{i: 2000 for i in range(18)}}
    r = period("fide-2024", ratings, [("a", i, 1.0) for i in range(18)])
    assert r.players["a"].factor == 38 and r.players["a"].change == 18 * 38 * 0.5
    assert r.players["a"].new_rating == 2342 and r.players[0].factor == 40


def test_oesb_difference_above_735_expects_everything():
    # D = 800 > 735: E = 1.0. A win changes nothing; a loss costs F = 1400^2 / 1e5 = 19.6 -> -20,
    # and the winner gains his full F = 2200^2 / 1e5 = 48.4.
    r = period("oesb-classic", {"a": 2000, "b": 1200}, [("a", "b", 1.0)])
    assert r.players["a"].change == 0.0 and r.players["b"].change == 0.0
    r = period("oesb-classic", {"a": 2000, "b": 1200}, [("a", "b", 0.0)])
    assert r.players["a"].new_rating == 1980 and r.players["b"].change == pytest.approx(48.4, abs=1e-12)


def test_newcomers_meeting_each_other_and_pending_sides():
    # N1: 1-1-0-0 vs R1 (1800), 1-1/2 vs R2 (1600), 1-1/2 vs N2: 5 / 8.
    # N2: 0-1-1/2 vs R2, 0-1/2 vs N1: 2 / 5 (below 7: no published value).
    # Fixed point: v2 = (3 x 1600 + 2 v1) / 5 + 700 x (0.4 - 0.5) x 5/7 = 910 + 0.4 v1,
    # v1 = (4 x 1800 + 2 x 1600 + 2 v2) / 8 + 700 x (5/8 - 0.5) x 8/10 = 1370 + 0.25 v2
    # -> v1 = 1775, v2 = 1620; iteration stops within 0.001.
    games = [("N1", "R1", 1), ("N1", "R1", 1), ("R1", "N1", 1), ("R1", "N1", 1), ("N1", "R2", 1),
             ("R2", "N1", 0.5), ("N1", "N2", 1), ("N2", "N1", 0.5), ("N2", "R2", 0), ("R2", "N2", 0),
             ("N2", "R2", 0.5)]
    r = period("oesb-classic", {"R1": 1800, "R2": 1600, "N1": None, "N2": None}, games)
    n1, n2, r1, r2 = (r.players[k] for k in ("N1", "N2", "R1", "R2"))
    assert (n1.games, n1.points, n1.published, n1.new_rating) == (8, 5.0, True, 1775)
    assert n1.start_value == pytest.approx(1775, abs=0.001)
    assert (n2.games, n2.points, n2.published, n2.new_rating, n2.pending_games) == (5, 2.0, False, None, 5)
    assert n2.start_value == pytest.approx(1620, abs=0.001)
    # R1 against N1's published 1775: D 25, E 0.5353519 each; 25.6 x (2 - 4 x 0.5353519) = -3.62 -> 1796.
    assert (r1.games, r1.pending_games, r1.new_rating) == (4, 0, 1796)
    assert r1.change == pytest.approx(-3.6200342, abs=1e-7)
    # R2: only the two games against N1 count; the three against N2 wait.
    assert (r2.games, r2.pending_games, r2.new_rating) == (2, 3, 1599)
    pending = [(g.key, g.only_for) for g in r.pending]
    assert pending == [(6, "N2"), (7, "N2"), (8, None), (9, None), (10, None)]
    assert sorted((c.player, c.game.key) for c in r.games if c.player in ("R1", "R2")) == [
        ("R1", 0), ("R1", 1), ("R1", 2), ("R1", 3), ("R2", 4), ("R2", 5)]
