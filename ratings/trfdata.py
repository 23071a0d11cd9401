"""TRF tournament -> plain engine data (players keyed by start rank, each game once)."""

from __future__ import annotations

from ratings.rules.period import GameIn, PlayerIn
from ratings.trf.reader import TrfError, TrfTournament

__all__ = ["tournament_games", "tournament_players", "tournament_to_period"]

SCORES = {"1": 1.0, "=": 0.5, "0": 0.0}


def tournament_players(tournament: TrfTournament) -> list[PlayerIn]:
    """Every player line; rating 0/blank = newcomer. TRF files carry no games counts (0)."""
    return [
        PlayerIn(key=p.start_rank, rating=p.rating, games_count=0, birth_year=p.birth_year)
        for p in tournament.players
    ]


def tournament_games(tournament: TrfTournament) -> list[GameIn]:
    """Played games (1/0/= against an opponent) once each, keyed (round, white, black);
    forfeits, byes and unrated W/D/L results are not rated (spec §1.5), nor is anything
    against the dummy "spielfrei" player: it stands for a bye, whatever result the file
    writes, and its line usually has no entry back. Both lines of any other game must agree,
    otherwise TrfError names the first line that disagrees."""
    by_rank = {p.start_rank: p for p in tournament.players}
    dummies = {p.start_rank for p in tournament.players if p.is_dummy}
    games: list[GameIn] = []
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
                raise TrfError(
                    f"round {g.round}: the result against {other.start_rank} does not match"
                    f" line {other.line_no}",
                    p.line_no,
                )
            if not back.is_played:
                # The opponent's line scores it as a forfeit or unrated: not rated.
                continue
            if p.start_rank > other.start_rank:
                continue  # taken from the lower start rank's line
            own = SCORES[g.result]
            if g.colour == "b":
                games.append(GameIn((g.round, other.start_rank, p.start_rank), other.start_rank,
                                    p.start_rank, 1.0 - own))
            else:
                games.append(GameIn((g.round, p.start_rank, other.start_rank), p.start_rank,
                                    other.start_rank, own))
    return games


def tournament_to_period(tournament: TrfTournament) -> tuple[list[PlayerIn], list[GameIn]]:
    return tournament_players(tournament), tournament_games(tournament)
