"""Pairing rows as chess-results prints them: Bo., No., Name, rating, Pts., Result, Pts., Name, rating,
No. (the rating column is headed with the national rating's name, the pool's).

"Pts." are the points a player had before the round (``selectors.points_by_round``). Two queries for
the whole tournament's results and byes, one for its players, whatever the number of rounds shown.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from clubrating.clubs.models import Member

from ..models import Bye, Game
from ..selectors import points_by_round
from ..selectors.rounds import _players
from ._texts import Texts


@dataclass
class Side:
    member: object
    player: object | None  # TournamentPlayer (None for a member not registered)
    points: float
    # The texts the tables print (views/_texts.py), formatted once per value.
    texts: dict = field(default_factory=dict)

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


def points_before(tournament, *, shared: bool = False) -> dict[int, dict[int, float]]:
    """{round number: {member id: points before that round}} for every paired round (+1);
    ``shared``: from the rows the tournament's version was read from (``points_by_round``)."""
    per_round: dict[int, dict[int, float]] = defaultdict(dict)
    for member, rounds in points_by_round(tournament=tournament, shared=shared).items():
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
    """{round pk: rows} for rounds whose ``games`` and ``byes`` are prefetched (or fetched). The
    games' players are set from the tournament's players (their members read by key, as the
    standings read them; a member not registered another query), not joined to each game."""
    players = {p.member_id: p for p in _players(tournament)}
    members = {member_id: p.member for member_id, p in players.items()}
    games = [g for rnd in rounds for g in rnd.games.all()]
    missing = {m for g in games for m in (g.white_id, g.black_id) if m not in members}
    if missing:
        members.update(Member.objects.in_bulk(missing))
    for game in games:
        game.white, game.black = members[game.white_id], members[game.black_id]
    before = points_before(tournament)
    texts = Texts()
    result = {}
    for rnd in rounds:
        points = before.get(rnd.number, {})

        def side(member, points=points):
            player = players.get(member.pk)
            score = points.get(member.pk, 0.0)
            return Side(member=member, player=player, points=score, texts={
                "start": texts.rating(player.start_rank if player else None),
                "rating": texts.rating(player.rating if player else None), "points": texts.points(score),
            })

        rows = [PairingRow(game=g, white=side(g.white), black=side(g.black)) for g in rnd.games.all()]
        rows += [PairingRow(game=None, white=side(b.member), bye=b) for b in rnd.byes.all()]
        result[rnd.pk] = rows
    return result
