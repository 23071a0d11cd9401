"""Team leagues: a season of team matches between clubs, run on the team competitions of
``clubrating.tournaments``.

A league season has divisions (Staffeln); each division is backed by a team ``Tournament`` whose
``Team``, ``Round``, ``TeamMatch``, ``LineupEntry`` and ``Game`` rows hold the schedule, the
lineups and the board games. So a board game of a league is an ordinary game: it is rated in the
pools that rate the division's tournament, by the same result service as any other, and its
history is the game's ``ResultChange`` rows. The models here add what a league has beyond a team
competition: the season's rules, the clubs' teams and ranked rosters, the captains and the state
of each match (lineups submitted, result entered, confirmed or disputed, decided).

Its parts: ``seasons``, ``rosters``, ``matches``.
"""

from __future__ import annotations

from clubrating.leagues.models.matches import LeagueMatch, MatchEvent, MatchEventKind, MatchStatus, Side
from clubrating.leagues.models.rosters import Roster, RosterChange, RosterChangeKind, RosterEntry
from clubrating.leagues.models.seasons import (
    DEFAULT_CRITERIA,
    Captain,
    Criterion,
    Division,
    LeagueSeason,
    LeagueTeam,
    criteria_valid,
    validate_criteria,
)

__all__ = [
    "Captain",
    "Criterion",
    "DEFAULT_CRITERIA",
    "Division",
    "LeagueMatch",
    "LeagueSeason",
    "LeagueTeam",
    "MatchEvent",
    "MatchEventKind",
    "MatchStatus",
    "Roster",
    "RosterChange",
    "RosterChangeKind",
    "RosterEntry",
    "Side",
    "criteria_valid",
    "validate_criteria",
]
