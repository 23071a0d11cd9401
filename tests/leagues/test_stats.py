"""Players' board scores, performance and the best board results on plain data."""

from clubrating.leagues.stats import BoardGame, best_boards, player_lines


def test_board_scores_and_performance_count_forfeits_in_the_score_only():
    lines = player_lines(
        [
            BoardGame("Huber", "T1", 1, 1.0, True, 2000),
            BoardGame("Maier", "T1", 2, 0.5, True, 1800),
            BoardGame("Huber", "T1", 1, 0.5, True, 1900),
            BoardGame("Huber", "T1", 2, 1.0, False),  # an empty board of the opponent
            BoardGame("Huber", "T1", 1, 0.0, True, None),  # an unrated opponent
        ]
    )
    huber, maier = lines
    assert (huber.member, huber.games, huber.points, huber.boards) == (
        "Huber",
        4,
        2.5,
        {1: [1.5, 3], 2: [1.0, 1]},
    )
    # Rp over the two rated games: 1950 + dp(0.75) = 1950 + 193.
    assert (huber.opponents, huber.rated_points, huber.performance) == ([2000, 1900], 1.5, 2143)
    assert huber.percent == 62.5
    assert huber.main_board == 1
    assert (maier.performance, maier.main_board) == (1800, 2)


def test_without_a_rated_game_there_is_no_performance():
    (line,) = player_lines([BoardGame("Huber", "T1", 3, 1.0, False)])
    assert line.performance is None


def test_best_board_results_by_percentage_then_points_with_a_minimum_of_games():
    lines = player_lines(
        [
            BoardGame("Huber", "T1", 1, 1.0, True, 2000),
            BoardGame("Huber", "T1", 1, 1.0, True, 2000),
            BoardGame("Maier", "T2", 1, 1.0, True, 2000),
            BoardGame("Maier", "T2", 1, 1.0, True, 2000),
            BoardGame("Gruber", "T3", 1, 1.0, True, 2000),  # one game: below the minimum
            BoardGame("Gruber", "T3", 2, 0.5, True, 2000),
            BoardGame("Gruber", "T3", 2, 0.5, True, 2000),
            BoardGame("Wagner", "T2", 2, 0.0, True, 2000),
            BoardGame("Wagner", "T2", 2, 1.0, True, 2000),
        ]
    )
    best = best_boards(lines, min_games=2)
    assert [(b.line.member, b.points, b.games, b.percent) for b in best[1]] == [
        ("Huber", 2.0, 2, 100.0),
        ("Maier", 2.0, 2, 100.0),
    ]
    assert [(b.line.member, b.points, b.games) for b in best[2]] == [("Gruber", 1.0, 2), ("Wagner", 1.0, 2)]
    assert list(best_boards(lines, min_games=3)) == []
