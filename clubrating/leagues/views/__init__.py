"""The captains' and the league director's pages: made for a phone at the board.

A captain sees his teams and their matches, submits lineups, enters the results of home matches
and confirms or disputes those of away matches; the league director sees what waits for him and
decides. The pages compose the league services with the ratings' result service, so that every
board result is rated on entry. Who may act is checked by the services (and here, for reading).

Its parts: ``matches``, ``captain``, ``director``, ``setup``.
"""

from __future__ import annotations

from clubrating.leagues.views.captain import captain_home, lineup_check, lineup_edit, lineup_ratings
from clubrating.leagues.views.director import director_home, roster
from clubrating.leagues.views.matches import (
    match_confirm,
    match_decide,
    match_detail,
    match_dispute,
    match_results,
)
from clubrating.leagues.views.setup import division_schedule, season_new, season_setup

__all__ = [
    "captain_home",
    "director_home",
    "division_schedule",
    "lineup_check",
    "lineup_edit",
    "lineup_ratings",
    "match_confirm",
    "match_decide",
    "match_detail",
    "match_dispute",
    "match_results",
    "roster",
    "season_new",
    "season_setup",
]
