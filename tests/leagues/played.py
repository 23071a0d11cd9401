"""The Landesliga of the league tests played through its three rounds, by hand-worked results
(Berger order: Donaustadt 1, Favoriten 1, Hietzing 1, Ottakring 1):

Round 1  Donaustadt 1 – Ottakring 1  2.5 : 1.5  (W, D, L; Ottakring leaves board 4 empty)
         Favoriten 1 – Hietzing 1    2 : 2      (L, L, W, W)
Round 2  Ottakring 1 – Hietzing 1    0 : 4      (Ottakring does not appear; the director decides)
         Donaustadt 1 – Favoriten 1  2.5 : 1.5  (W, W, L, D)
Round 3  Hietzing 1 – Donaustadt 1   2 : 2      (D, D, D, D)
         Favoriten 1 – Ottakring 1   2.5 : 1.5  (D, W, L, W)

Every player is rated in one pool: rank r of his club 2100 − 100·r (so 2000 on board 1).
"""

import datetime

from clubrating.leagues import services
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.leagues.conftest import DATES, League, at, submit
from tests.ratings.factories import make_pool, publish_start_list

LANDESLIGA = ["Donaustadt 1", "Favoriten 1", "Hietzing 1", "Ottakring 1"]
HOME_WINS = {
    "W": (Result.WHITE_WINS, Result.BLACK_WINS),
    "D": (Result.DRAW, Result.DRAW),
    "L": (Result.BLACK_WINS, Result.WHITE_WINS),
}


def rate_everyone(league: League):
    pool = make_pool(start=datetime.date(2026, 1, 1))
    ratings = {}
    for club in ("Donaustadt", "Favoriten", "Hietzing", "Ottakring"):
        for rank, member in enumerate(league.players[club][:4], start=1):
            ratings[member] = (2100 - 100 * rank, 40)
    publish_start_list(pool, ratings)
    return pool


def play(league: League, home: str, number: int, outcome: str, *, away_ranks=(1, 2, 3, 4)):
    """``home`` plays its round-``number`` match with the boards' ``outcome`` from its side
    ("WDL-": won, drawn, lost, empty board); its captain enters it, the away captain confirms."""
    away = league.opponent(home, number)
    submit(league, home, number, [1, 2, 3, 4])
    submit(league, away, number, list(away_ranks))
    match = league.match(home, number)
    results = {
        board: HOME_WINS[code][0 if board % 2 else 1]
        for board, code in enumerate(outcome, start=1)
        if code != "-"
    }
    services.match_results_enter(
        match=match,
        results=results,
        user=league.captains[home],
        record=game_record_result,
        now=at(DATES[number - 1], 18),
    )
    services.match_confirm(match=match, user=league.captains[away], now=at(DATES[number - 1], 19))
    return match


def play_landesliga(league: League):
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    play(league, "Favoriten 1", 1, "LLWW")
    # Ottakring does not appear in round 2: Hietzing lined up, the director decides.
    submit(league, "Hietzing 1", 2, [1, 2, 3, 4])
    absent = league.match("Ottakring 1", 2)
    services.match_decide(
        match=absent,
        user=league.director,
        reason="Ottakring nicht angetreten",
        record=game_record_result,
        absent="home",
        now=at(DATES[1], 18),
    )
    play(league, "Donaustadt 1", 2, "WWLD")
    play(league, "Hietzing 1", 3, "DDDD")
    play(league, "Favoriten 1", 3, "DWLW")
