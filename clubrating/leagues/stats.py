"""Players' statistics of a league division on plain data: each player's score per board, his
performance (Rp) and the best results of each board. No Django, no database.

A forfeit (an empty board, an absent team, a game lost by default) counts in the score, as it
does in the team's board points, but not in the performance: only played games against a rated
opponent do, with the opponent's rating of the match day (the one the game was rated with).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ratings.rules.performance import performance_exact

__all__ = ["BoardGame", "PlayerLine", "best_boards", "player_lines"]


@dataclass(frozen=True)
class BoardGame:
    """One board of a finished match from one player's side."""

    member: Hashable
    team: Hashable
    board: int
    points: float
    played: bool  # False: won or lost by forfeit
    opponent_rating: float | None = None  # the rating the opponent played with; None: unrated


@dataclass
class PlayerLine:
    member: Hashable
    team: Hashable
    games: int = 0
    points: float = 0
    # {board: [points, games]} of the boards he played.
    boards: dict[int, list[float]] = field(default_factory=dict)
    opponents: list[float] = field(default_factory=list)
    rated_points: float = 0

    @property
    def percent(self) -> float:
        return 100 * self.points / self.games if self.games else 0.0

    @property
    def performance(self) -> int | None:
        """Rp: average rating of the rated opponents of his played games + dp(score fraction)."""
        return performance_exact(self.opponents, self.rated_points)

    @property
    def main_board(self) -> int:
        """The board he played most often (the highest of equals)."""
        return min(self.boards, key=lambda board: (-self.boards[board][1], board))


def player_lines(
    games: Sequence[BoardGame], *, key: Callable[[BoardGame], Hashable] | None = None
) -> list[PlayerLine]:
    """One line per player and team, in the order the players first appear in ``games``.
    ``key``: what tells a game's player and team (by default the pair itself)."""
    lines: dict[Hashable, PlayerLine] = {}
    for game in games:
        wanted = (game.member, game.team) if key is None else key(game)
        line = lines.get(wanted)
        if line is None:
            line = lines[wanted] = PlayerLine(game.member, game.team)
        line.games += 1
        line.points += game.points
        cell = line.boards.setdefault(game.board, [0.0, 0])
        cell[0] += game.points
        cell[1] += 1
        if game.played and game.opponent_rating is not None:
            line.opponents.append(game.opponent_rating)
            line.rated_points += game.points
    return list(lines.values())


@dataclass(frozen=True)
class BoardBest:
    board: int
    line: PlayerLine
    points: float
    games: int

    @property
    def percent(self) -> float:
        return 100 * self.points / self.games


def best_boards(lines: Sequence[PlayerLine], *, min_games: int = 1) -> dict[int, list[BoardBest]]:
    """{board: the players with the best result on it}: the highest percentage among those with
    at least ``min_games`` games there, then the most points; ties are all listed."""
    by_board: dict[int, list[BoardBest]] = {}
    for line in lines:
        for board, (points, games) in line.boards.items():
            if games >= min_games:
                by_board.setdefault(board, []).append(BoardBest(board, line, points, int(games)))
    best: dict[int, list[BoardBest]] = {}
    for board in sorted(by_board):
        entries = by_board[board]
        top = max((e.points / e.games, e.points) for e in entries)
        best[board] = [e for e in entries if (e.points / e.games, e.points) == top]
    return best
