"""Crosstable and progress-table data built from one query for games and one for byes.

The standings themselves (points and tie-breaks) come from ``clubrating.tournaments.selectors``;
this module only lays the games out per player, the way chess-results prints them.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from ..models import RESULT_POINTS, Bye, ByeKind, Game, Result

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
_BYE_SYMBOLS = {ByeKind.FULL: "+", ByeKind.HALF: "½", ByeKind.ZERO: "0", ByeKind.PAIRING: "+"}


@dataclass
class Cell:
    """One round (progress table) or one opponent (crosstable) of one player."""

    symbol: str = ""
    opponent_rank: int | None = None
    colour: str = ""  # "w" / "b" / "" for a bye
    points_after: float | None = None
    game: Game | None = None


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


def progress_table(tournament) -> tuple[list[int], list[PlayerLine]]:
    """Per player and round: opponent's starting rank, colour, result and running points."""
    players = _players(tournament)
    games, byes = _games_and_byes(tournament)
    rank = {p.member_id: p.start_rank for p in players}
    rounds = sorted({g.round.number for g in games} | {b.round.number for b in byes})
    per_player: dict[int, dict[int, Cell]] = defaultdict(dict)
    for game in games:
        white, black = _SYMBOLS[game.result]
        per_player[game.white_id][game.round.number] = Cell(
            white, rank.get(game.black_id), "w", game=game)
        per_player[game.black_id][game.round.number] = Cell(
            black, rank.get(game.white_id), "b", game=game)
    for bye in byes:
        per_player[bye.member_id][bye.round.number] = Cell(_BYE_SYMBOLS[bye.kind])
    bye_points = {(b.member_id, b.round.number): b.points for b in byes}
    lines = []
    for player in players:
        line = PlayerLine(player=player)
        for number in rounds:
            cell = per_player[player.member_id].get(number, Cell())
            if cell.game is not None and cell.game.result:
                white_points, black_points = RESULT_POINTS[cell.game.result]
                line.points += white_points if cell.colour == "w" else black_points
            line.points += bye_points.get((player.member_id, number), 0.0)
            cell.points_after = line.points
            line.cells.append(cell)
        lines.append(line)
    return rounds, lines


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
