"""Tournament operations: registration, pairing, hand changes to a pairing, team rounds and lineups.

Every service takes keyword arguments, runs in one transaction and raises ``TournamentRefused`` with
a translated message when the request does not fit the tournament's state; nothing is changed then.

Its parts: ``results``, ``registration``, ``rounds``, ``teams``.
"""

from __future__ import annotations

from clubrating.core.db import plain_execute
from clubrating.tournaments.services.registration import (
    bye_request,
    guest_register,
    player_register,
    player_withdraw,
    players_register,
    start_ranks_assign,
    start_ranks_set,
)
from clubrating.tournaments.services.results import game_results_write
from clubrating.tournaments.services.rounds import (
    game_pairing_change,
    round_date_set,
    round_pair,
    round_unpair,
    schedule_pair,
)
from clubrating.tournaments.services.teams import lineup_set, team_create, team_players_assign

__all__ = [
    "bye_request",
    "game_pairing_change",
    "game_results_write",
    "guest_register",
    "lineup_set",
    "plain_execute",
    "player_register",
    "player_withdraw",
    "players_register",
    "round_date_set",
    "round_pair",
    "round_unpair",
    "schedule_pair",
    "start_ranks_assign",
    "start_ranks_set",
    "team_create",
    "team_players_assign",
]
