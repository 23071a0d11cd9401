"""The round-robin crosstable (player against player) from one query for games and one for byes.

The progress table of a Swiss (player by round) is ``selectors.tournament_crosstable``; a round
robin is printed as a matrix of opponents, which that selector does not lay out.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from ..models import RESULT_POINTS, Bye, Game, Result

# A result seen from one player: (white's symbol, black's symbol).
_SYMBOLS = {
    Result.WHITE_WINS: ("1", "0"),
    Result.DRAW: ("½", "½"),
    Result.BLACK_WINS: ("0", "1"),
    Result.WHITE_FORFEIT_WIN: ("+", "−"),
    Result.BLACK_FORFEIT_WIN: ("−", "+"),
    Result.DOUBLE_FORFEIT: ("−", "−"),
    Result.NOT_PLAYED: ("", ""),
}


@dataclass
class Cell:
    """One opponent of one player: the result symbols of their games ("1 ½" in a double one)."""

    symbol: str = ""
    opponent_rank: int | None = None


@dataclass
class PlayerLine:
    player: object  # TournamentPlayer
    points: float = 0.0
    cells: list[Cell] = field(default_factory=list)


def _games_and_byes(tournament):
    games = list(Game.objects.filter(round__tournament=tournament).select_related("round"))
    byes = list(Bye.objects.filter(round__tournament=tournament).select_related("round"))
    return games, byes


def _players(tournament):
    return list(tournament.players.select_related("member", "member__club").order_by("start_rank", "pk"))


def crosstable(tournament) -> list[PlayerLine]:
    """Round robin: one cell per opponent in starting-rank order (two symbols in a double one)."""
    players = _players(tournament)
    games, byes = _games_and_byes(tournament)
    index = {p.member_id: i for i, p in enumerate(players)}
    symbols: dict[tuple[int, int], list[str]] = defaultdict(list)
    points: dict[int, float] = defaultdict(float)
    for game in sorted(games, key=lambda g: g.round.number):
        white, black = _SYMBOLS[game.result]
        symbols[(game.white_id, game.black_id)].append(white or "·")
        symbols[(game.black_id, game.white_id)].append(black or "·")
        if game.result:
            white_points, black_points = RESULT_POINTS[game.result]
            points[game.white_id] += white_points
            points[game.black_id] += black_points
    for bye in byes:
        points[bye.member_id] += bye.points
    lines = []
    for player in players:
        line = PlayerLine(player=player, points=points[player.member_id])
        for other in players:
            if other.member_id == player.member_id:
                line.cells.append(Cell(symbol="×"))
            else:
                line.cells.append(Cell(symbol=" ".join(symbols.get((player.member_id, other.member_id), [])),
                                       opponent_rank=index[other.member_id] + 1))
        lines.append(line)
    return lines
