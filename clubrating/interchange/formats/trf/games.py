"""The rateable games of a TRF file, each once, with both player lines checked to agree."""

from __future__ import annotations

from dataclasses import dataclass

from .reader import TrfError, TrfTournament

__all__ = ["PlayedGame", "played_games"]

SCORES = {"1": 1.0, "=": 0.5, "0": 0.0}


@dataclass(frozen=True)
class PlayedGame:
    round: int
    white: int  # start ranks
    black: int
    white_score: float


def played_games(tournament: TrfTournament) -> list[PlayedGame]:
    """Games played over the board (1/0/= against an opponent), taken from the lower start
    rank's line. Forfeits, byes and unrated W/D/L results are left out, and so is anything
    against the dummy "spielfrei" player: it stands for a bye, whatever result the file writes,
    and its line usually has no entry back. Both lines of any other game must agree, otherwise
    TrfError names the first line that disagrees."""
    by_rank = {p.start_rank: p for p in tournament.players}
    dummies = {p.start_rank for p in tournament.players if p.is_dummy}
    games: list[PlayedGame] = []
    for p in tournament.players:
        if p.start_rank in dummies:
            continue
        for g in p.results:
            if not g.is_played or g.opponent in dummies:
                continue
            other = by_rank[g.opponent]
            back = next((h for h in other.results if h.round == g.round), None)
            if back is None or back.opponent != p.start_rank or (
                back.is_played and SCORES[back.result] != 1.0 - SCORES[g.result]
            ):
                raise TrfError("mismatch", p.line_no, round=g.round, other=other.start_rank,
                               other_line=other.line_no)
            if not back.is_played:
                continue  # the opponent's line scores it as a forfeit or unrated
            if p.start_rank > other.start_rank:
                continue
            own = SCORES[g.result]
            if g.colour == "b":
                games.append(PlayedGame(g.round, other.start_rank, p.start_rank, 1.0 - own))
            else:
                games.append(PlayedGame(g.round, p.start_rank, other.start_rank, own))
    return games
