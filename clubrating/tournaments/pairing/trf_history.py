"""Swiss history from a TRF file, to re-pair its rounds (tests and comparisons on real files).

Real files code the same thing differently: a "spielfrei" dummy opponent or ``0000 - +`` for the
pairing-allocated bye, blank rounds for players not paired. They are normalised here.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubrating.interchange.formats.trf import TrfGame, TrfTournament
from clubrating.interchange.formats.trf.acceleration import read_accelerations
from clubrating.tournaments.pairing.history import (
    ABSENT,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    PAB,
    PLAYED,
    RoundRecord,
    SwissEntrant,
    entrants_for_round,
)
from clubrating.tournaments.pairing.legality import Pairing


def _record(game: TrfGame, dummies: set[int]) -> RoundRecord:
    opponent = None if game.opponent in dummies else game.opponent
    colour = game.colour if game.colour in ("w", "b") else None
    if opponent is None:
        # Against nobody (or the dummy): a full point the player did not request is the PAB.
        if game.result in ("U", "+", "1"):
            return RoundRecord(PAB, 1.0)
        return RoundRecord(ABSENT, game.points)
    if game.result in "10=" and game.result:
        return RoundRecord(PLAYED, game.points, opponent, colour)
    if game.result in ("+", "W", "F"):
        # W (unrated win) still was a game; only "+" is a forfeit. F against a player is odd.
        kind = PLAYED if game.result == "W" else FORFEIT_WIN
        return RoundRecord(kind, 1.0, opponent, colour)
    if game.result in ("D", "L"):
        return RoundRecord(PLAYED, game.points, opponent, colour)
    return RoundRecord(FORFEIT_LOSS, game.points, opponent, colour)


@dataclass
class TrfRounds:
    """The history of a TRF file plus what actually happened per round."""

    total_rounds: int
    history: dict[int, list[RoundRecord]]
    ratings: dict[int, int]
    acceleration: dict[int, dict[int, float]]

    @classmethod
    def from_trf(cls, trf: TrfTournament) -> TrfRounds:
        dummies = {p.start_rank for p in trf.players if p.is_dummy}
        history, ratings = {}, {}
        played_rounds = max(len(p.results) for p in trf.players)
        for p in trf.players:
            if p.start_rank in dummies:
                continue
            recs = [_record(g, dummies) for g in p.results]
            history[p.start_rank] = recs + [RoundRecord(ABSENT, 0.0)] * (played_rounds - len(recs))
            ratings[p.start_rank] = p.rating or 0
        acceleration = read_accelerations(trf.extra_lines)
        total = trf.rounds
        for line in trf.extra_lines:
            if line.startswith("XXR"):
                total = max(total, int(line[3:].strip()))
        return cls(total, history, ratings, acceleration)

    @property
    def played_rounds(self) -> int:
        """Rounds that have at least one pairing (a last column of requested byes is no round)."""
        return max(
            (i + 1 for recs in self.history.values() for i, r in enumerate(recs) if r.kind != ABSENT),
            default=0,
        )

    def initial_colour(self) -> str:
        """Colour the top-ranked player of a round-1 pair got (the tournament's initial colour)."""
        for pid in sorted(self.history):
            rec = self.history[pid][0] if self.history[pid] else None
            if rec and rec.opponent is not None and rec.colour:
                if rec.opponent > pid:
                    return rec.colour
                return "b" if rec.colour == "w" else "w"
        return "w"

    def absent(self, round_number: int) -> set[int]:
        return {pid for pid, recs in self.history.items() if recs[round_number - 1].kind == ABSENT}

    def entrants(self, round_number: int) -> list[SwissEntrant]:
        """Entrants to pair in ``round_number``: everyone not absent in that round."""
        absent = self.absent(round_number)
        everyone = entrants_for_round(self.history, self.ratings, round_number, self.acceleration)
        return [e for e in everyone if e.id not in absent]

    def actual(self, round_number: int) -> list[Pairing]:
        """The pairing that was played, colours as recorded (white first when unknown)."""
        pairs, done = [], set()
        for pid, recs in sorted(self.history.items()):
            rec = recs[round_number - 1]
            if pid in done or rec.kind == ABSENT:
                continue
            if rec.kind == PAB:
                pairs.append((pid, None))
            else:
                white, black = (rec.opponent, pid) if rec.colour == "b" else (pid, rec.opponent)
                pairs.append((white, black))
                done.add(rec.opponent)
            done.add(pid)
        return [Pairing(i + 1, w, b) for i, (w, b) in enumerate(pairs)]
