"""A round's pairings and the crosstable."""

from __future__ import annotations

from dataclasses import dataclass, field

from clubrating.tournaments.models import (
    BYE_SYMBOLS,
    PLAYED_RESULTS,
    RESULT_POINTS,
    RESULT_SYMBOLS,
    ByeKind,
    Game,
    Result,
    Round,
    Tournament,
    TournamentPlayer,
)
from clubrating.tournaments.pairing.history import ABSENT, FORFEIT_LOSS, FORFEIT_WIN, PAB, PLAYED, RoundRecord
from clubrating.tournaments.selectors.plain import plain_players
from clubrating.tournaments.selectors.rounds import _players
from clubrating.tournaments.selectors.standings import (
    PENDING,
    StandingRow,
    _records_by_member,
    _standing_rows,
    tiebreak_specs,
)


@dataclass
class BoardRow:
    board: int
    white: TournamentPlayer | None
    black: TournamentPlayer | None  # None for a bye
    result: str
    game: Game | None = None
    bye_kind: str = ""


def round_pairings(*, round: Round) -> list[BoardRow]:  # noqa: A002 - the model's name
    """The boards of a round, then its byes (pairing-allocated first). Three queries."""
    players = {p.member_id: p for p in round.tournament.players.select_related("member")}
    rows = [
        BoardRow(g.board, players.get(g.white_id), players.get(g.black_id), g.result, game=g)
        for g in round.games.select_related("white", "black").order_by("board")
    ]
    byes = sorted(round.byes.all(), key=lambda b: (b.kind != ByeKind.PAIRING, b.member_id))
    board = max((r.board for r in rows), default=0)
    for offset, bye in enumerate(byes, start=1):
        rows.append(BoardRow(board + offset, players.get(bye.member_id), None, "", bye_kind=bye.kind))
    return rows


@dataclass
class CrosstableCell:
    round: int
    opponent: int | None  # opponent's starting rank
    colour: str  # "w", "b" or "" (bye / not paired)
    points: float | None  # None when not paired or not yet played
    code: str  # "1", "½", "0", "+", "−", "H", "F", "U" or "" (``_CODES``)


@dataclass
class CrosstableRow:
    player: TournamentPlayer
    points: float
    cells: list[CrosstableCell] = field(default_factory=list)


# A round seen from one player, from the one table of symbols: a played game's points, a forfeit,
# a bye (a zero-point bye or a round not paired shows nothing).
_CODES = {
    **{(PLAYED, RESULT_POINTS[result][0]): RESULT_SYMBOLS[result][0] for result in PLAYED_RESULTS},
    (FORFEIT_WIN, 1.0): RESULT_SYMBOLS[Result.WHITE_FORFEIT_WIN][0],
    (FORFEIT_LOSS, 0.0): RESULT_SYMBOLS[Result.WHITE_FORFEIT_WIN][1],
    (PAB, 1.0): BYE_SYMBOLS[ByeKind.PAIRING], (ABSENT, 1.0): BYE_SYMBOLS[ByeKind.FULL],
    (ABSENT, 0.5): BYE_SYMBOLS[ByeKind.HALF], (ABSENT, 0.0): "",
}


def tournament_crosstable(*, tournament: Tournament) -> list[CrosstableRow]:
    """Per player (starting-rank order) and round: opponent, colour, result. Four queries."""
    players = _players(tournament)
    records, rounds = _records_by_member(tournament, None, pending=True)
    return _crosstable_rows(players, records, rounds)


_ABSENT = RoundRecord(ABSENT, 0.0)  # a round not paired


def _crosstable_rows(players: list[TournamentPlayer], records: dict, rounds: int) -> list[CrosstableRow]:
    # Each round as ``_by_rank`` gives it (the opponent by starting rank; the rounds keyed by
    # starting rank), read here without building each record anew: a 300-player Swiss has
    # thousands of cells. A round counts as known when it is the player's own and has a result.
    rank_of = {p.member_id: p.start_rank for p in players}
    numbers = range(1, rounds + 1)
    by_rank = {p.start_rank: records.get(p.member_id) or {} for p in players}
    rows = []
    for p in players:
        own = records.get(p.member_id) or {}
        ranked = by_rank[p.start_rank]
        cells = []
        total = 0  # as ``sum``
        for number in numbers:
            kind, points, opponent, colour = ranked.get(number, _ABSENT)
            total += points
            if opponent is not None:
                opponent = rank_of.get(opponent)
            known = kind != PENDING and number in own
            cells.append(CrosstableCell(number, opponent, colour or "", points if known else None,
                                        _CODES.get((kind, points), "") if known else ""))
        rows.append(CrosstableRow(p, total, cells))
    return rows


def tournament_tables(
    *, tournament: Tournament, codes: list[str] | str | None = None, plain: bool = False,
) -> tuple[list[StandingRow], list[CrosstableRow]]:
    """``tournament_standings`` and ``tournament_crosstable`` together (the crosstable page shows
    both) from one read of the players and the results (``plain``: as plain rows, see
    ``tournament_standings``). Raises ``UnknownTiebreak`` like the standings. Four queries."""
    specs = tiebreak_specs(tournament=tournament, codes=codes)
    players = plain_players(tournament) if plain else _players(tournament)
    records, rounds = _records_by_member(tournament, None, pending=True, shared=plain)
    standings = _standing_rows(tournament, players, records, rounds, specs)
    return standings, _crosstable_rows(players, records, rounds)
