"""TRF (FIDE tournament report file) support; pure Python, no Django."""

from ratings.trf.reader import TrfError, TrfGame, TrfPlayer, TrfTournament, parse_trf, read_trf

__all__ = ["TrfError", "TrfGame", "TrfPlayer", "TrfTournament", "parse_trf", "read_trf"]
