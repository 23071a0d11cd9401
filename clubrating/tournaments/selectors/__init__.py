"""Reads for the tournament pages, the standings command and the pairing service.

Each selector runs a fixed number of queries (players, games, byes, ...), whatever the size of the
tournament; the per-player work happens in Python on those rows.

Its parts: ``rounds``, ``standings``, ``crosstable``, ``teams``, ``boards``.
"""

from __future__ import annotations

from clubrating.tournaments.selectors.boards import board_game
from clubrating.tournaments.selectors.crosstable import (
    BoardRow,
    CrosstableCell,
    CrosstableRow,
    round_pairings,
    tournament_crosstable,
    tournament_tables,
)
from clubrating.tournaments.selectors.listing import TournamentState, tournament_entrants, tournament_states
from clubrating.tournaments.selectors.rounds import (
    PairCheck,
    entrant_counts,
    finished_q,
    last_paired_round_number,
    paired_round_q,
    pairings_version,
    round_pair_check,
    rounds_planned,
    tournament_finished,
    tournament_version,
    unpairable_round,
)
from clubrating.tournaments.selectors.standings import (
    PENDING,
    StandingRow,
    player_histories,
    points_by_round,
    tiebreak_specs,
    tournament_standings,
)
from clubrating.tournaments.selectors.teams import (
    MatchBoard,
    MatchScore,
    TeamStandingRow,
    match_score,
    team_match_rounds,
    team_standings,
    team_tiebreak_codes,
)

__all__ = [
    "BoardRow",
    "CrosstableCell",
    "CrosstableRow",
    "MatchBoard",
    "MatchScore",
    "PENDING",
    "PairCheck",
    "StandingRow",
    "TeamStandingRow",
    "board_game",
    "entrant_counts",
    "finished_q",
    "TournamentState",
    "tournament_states",
    "tournament_entrants",
    "last_paired_round_number",
    "match_score",
    "paired_round_q",
    "pairings_version",
    "player_histories",
    "points_by_round",
    "round_pair_check",
    "round_pairings",
    "rounds_planned",
    "team_match_rounds",
    "team_standings",
    "team_tiebreak_codes",
    "tiebreak_specs",
    "tournament_crosstable",
    "tournament_finished",
    "tournament_standings",
    "tournament_tables",
    "tournament_version",
    "unpairable_round",
]
