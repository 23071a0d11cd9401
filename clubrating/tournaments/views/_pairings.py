"""Pairing rows as chess-results prints them: Bo., No., Name, rating, Pts., Result, Pts., Name, rating,
No. (the rating column is headed with the national rating's name, the pool's).

"Pts." are the points a player had before the round (``selectors.points_by_round``). Two queries for
the whole tournament's results and byes, one for its players, whatever the number of rounds shown.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..models import Bye, Game
from ..selectors import points_by_round


@dataclass
class Side:
    member: object
    player: object | None  # TournamentPlayer (None for a member not registered)
    points: float

    @property
    def start_rank(self):
        return self.player.start_rank if self.player else None

    @property
    def rating(self):
        return self.player.rating if self.player else None


@dataclass
class PairingRow:
    game: Game | None
    white: Side
    black: Side | None = None
    bye: Bye | None = None

    @property
    def board(self):
        return self.game.board if self.game else None


def points_before(tournament) -> dict[int, dict[int, float]]:
    """{round number: {member id: points before that round}} for every paired round (+1)."""
    per_round: dict[int, dict[int, float]] = defaultdict(dict)
    for member, rounds in points_by_round(tournament=tournament).items():
        for number, points in rounds.items():
            per_round[number][member] = points
    last = max(per_round, default=0)
    before: dict[int, dict[int, float]] = {}
    running: dict[int, float] = defaultdict(float)
    for number in range(1, last + 2):
        before[number] = dict(running)
        for member, points in per_round.get(number, {}).items():
            running[member] += points
    return before


def pairing_rows(tournament, rounds) -> dict[int, list[PairingRow]]:
    """{round pk: rows} for rounds whose ``games`` and ``byes`` are prefetched (or fetched)."""
    players = {p.member_id: p for p in tournament.players.all()}
    before = points_before(tournament)
    result = {}
    for rnd in rounds:
        points = before.get(rnd.number, {})

        def side(member, points=points):
            return Side(member=member, player=players.get(member.pk), points=points.get(member.pk, 0.0))

        rows = [PairingRow(game=g, white=side(g.white), black=side(g.black)) for g in rnd.games.all()]
        rows += [PairingRow(game=None, white=side(b.member), bye=b) for b in rnd.byes.all()]
        result[rnd.pk] = rows
    return result
