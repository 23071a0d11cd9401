"""FIDE TRF16 files (Handbook C04 Annex 2): reader, writer, national rating records, games."""

from .games import PlayedGame, played_games
from .national import NationalRating, national_ratings
from .reader import TrfError, TrfGame, TrfPlayer, TrfTournament, parse_date, parse_trf, read_trf
from .writer import format_player_line, write_trf

__all__ = [
    "NationalRating",
    "PlayedGame",
    "TrfError",
    "TrfGame",
    "TrfPlayer",
    "TrfTournament",
    "format_player_line",
    "national_ratings",
    "parse_date",
    "parse_trf",
    "played_games",
    "read_trf",
    "write_trf",
]
