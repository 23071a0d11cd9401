"""The standings as the pages show them: rank, player, points and the tournament's tie-breaks.

The tie-break arithmetic lives in ``clubrating.tournaments.selectors`` (the tournaments engineer's
module); this adapter turns its rows into what the templates and the export table need, and
falls back to points only while that module is not installed.
"""

from dataclasses import dataclass

from ._tables import progress_table


@dataclass
class StandingRow:
    rank: int
    player: object  # TournamentPlayer
    points: float
    tiebreaks: list[float | None]


def tiebreak_codes(tournament) -> list[str]:
    return [code.strip() for code in (tournament.tiebreaks or "").split(",") if code.strip()]


def _selector():
    try:
        from clubrating.tournaments import selectors
    except ImportError:
        return None
    return getattr(selectors, "tournament_standings", None)


def standings(tournament) -> tuple[list[str], list[StandingRow]]:
    codes = tiebreak_codes(tournament)
    selector = _selector()
    if selector is not None:
        return codes, _from_selector(tournament, selector, codes)
    _rounds, lines = progress_table(tournament)
    ordered = sorted(lines, key=lambda line: (-line.points, line.player.start_rank or 0))
    rows, rank = [], 0
    for position, line in enumerate(ordered, start=1):
        if position == 1 or line.points != ordered[position - 2].points:
            rank = position
        rows.append(StandingRow(rank=rank, player=line.player, points=line.points,
                                tiebreaks=[None] * len(codes)))
    return codes, rows


def _from_selector(tournament, selector, codes) -> list[StandingRow]:
    players = {p.pk: p for p in tournament.players.select_related("member", "member__club")}
    rows = []
    for row in selector(tournament=tournament, codes=codes):
        player = players.get(getattr(row, "player_id", None)) or getattr(row, "player", None)
        rows.append(StandingRow(rank=row.rank, player=player, points=row.points,
                                tiebreaks=list(row.tiebreaks)))
    return rows
