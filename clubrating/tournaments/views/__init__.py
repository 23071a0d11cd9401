"""Tournament pages: public pages, result entry, the officials' pages and the print/exports."""

from .exports import round_print, standings_export, tournament_print
from .official import (
    pairing_edit,
    pairing_swap_colours,
    players_register,
    round_date,
    round_pair,
    tournament_create,
)
from .public import (
    game_detail,
    round_detail,
    tournament_crosstable,
    tournament_detail,
    tournament_evaluation,
    tournament_list,
    tournament_pairings,
    tournament_players,
    tournament_progress,
    tournament_standings,
)
from .results import board_result, game_correct, round_results

__all__ = [
    "board_result", "game_correct", "game_detail", "pairing_edit", "pairing_swap_colours",
    "players_register", "round_date", "round_detail", "round_pair", "round_print", "round_results",
    "standings_export", "tournament_create", "tournament_crosstable", "tournament_detail",
    "tournament_evaluation", "tournament_list", "tournament_pairings", "tournament_players",
    "tournament_progress",
    "tournament_print", "tournament_standings",
]
