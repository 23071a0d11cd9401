"""Writing results in bulk: ``clubrating.tournaments.writing`` (outside this package, so that the
owner of recording, which the services call, can use it without importing the services)."""

from clubrating.tournaments.writing import game_results_write

__all__ = ["game_results_write"]
