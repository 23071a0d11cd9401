"""The imports' results go to their owner (``clubrating.tournaments.recording``), which checks,
writes and rates them as every other way of entering a result does."""

from __future__ import annotations

from clubrating.core.errors import Refused
from clubrating.tournaments.models import Game
from clubrating.tournaments.recording import game_results_record

from .errors import ImportRefused


def results_record(games: list[Game], results: list[tuple[str, str]], user) -> None:
    """The imported games' results, recorded at once; the owner's refusal (a result that must not
    be saved, a closed rating period) is the import's, and undoes it whole."""
    try:
        game_results_record(games=games, results=results, user=user)
    except Refused as refusal:
        raise ImportRefused(refusal.message) from refusal
