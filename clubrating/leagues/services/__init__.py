"""Team league operations: seasons, divisions, teams and schedules; rosters; lineups; results,
their confirmation or dispute and the league director's decisions.

Every service takes keyword arguments, runs in one transaction and raises ``LeagueRefused`` (a
``Refused``) with a translated message when the request does not fit; nothing is changed then.
Who may act is checked here: a team's captains for their team, the season's directors for all.

Board games are ordinary games of the division's team tournament. A result is written through
``record``, by default the one owner of recording a result
(``clubrating.tournaments.recording.game_result_record``: checked, written and rated), so a
league game is rated on entry like any other and its changes stay in the game's history;
forfeits are scored but not rated.

Its parts: ``season``, ``rosters``, ``lineups``, ``results``.
"""

from __future__ import annotations

from clubrating.leagues.services.lineups import LineupRefused, lineup_check, lineup_submit
from clubrating.leagues.services.results import (
    RecordResult,
    match_confirm,
    match_decide,
    match_dispute,
    match_ineligible,
    match_results_enter,
)
from clubrating.leagues.services.rosters import roster_add, roster_move, roster_remove, roster_set
from clubrating.leagues.services.season import (
    FEDERATION_RULES,
    captain_add,
    division_create,
    match_reschedule,
    schedule_check,
    schedule_create,
    season_create,
    season_played,
    season_rules_update,
    team_register,
)

__all__ = [
    "FEDERATION_RULES",
    "LineupRefused",
    "RecordResult",
    "captain_add",
    "division_create",
    "lineup_check",
    "lineup_submit",
    "match_confirm",
    "match_decide",
    "match_dispute",
    "match_ineligible",
    "match_reschedule",
    "match_results_enter",
    "roster_add",
    "roster_move",
    "roster_remove",
    "roster_set",
    "schedule_check",
    "schedule_create",
    "season_create",
    "season_played",
    "season_rules_update",
    "team_register",
]
