"""A Swiss tournament's history as the pairing engines need it, independent of storage.

Both the database services and the tests on real TRF files describe each entrant's past rounds as
:class:`RoundRecord` rows; :func:`entrants_for_round` turns them into :class:`SwissEntrant` states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

# What happened to an entrant in one round.
PLAYED = "played"  # over the board: colour and opponent known
FORFEIT_WIN = "forfeit_win"  # paired, opponent did not appear (counts as a bye for the PAB rule)
FORFEIT_LOSS = "forfeit_loss"  # paired, did not appear
PAB = "pab"  # pairing-allocated bye
ABSENT = "absent"  # requested bye (full/half/zero) or not paired at all


class RoundRecord(NamedTuple):
    """One round of one entrant; immutable. A tuple, not a frozen dataclass: a 300-player table
    builds tens of thousands of them per request, and a frozen dataclass sets each field through
    ``object.__setattr__``."""

    kind: str
    points: float
    opponent: int | None = None
    colour: str | None = None  # "w" / "b" for played games


@dataclass(frozen=True)
class SwissEntrant:
    """One entrant's state before the round to pair (ids are the starting ranks)."""

    id: int
    rating: int
    points: float
    colours: tuple[str, ...] = ()  # one "w"/"b"/"-" per past round ("-" = no game played)
    floats: tuple[str, ...] = ()  # one "U"/"D"/"-" per past round
    opponents: frozenset[int] = field(default_factory=frozenset)  # played over the board
    had_bye: bool = False  # PAB or forfeit win received: may not get the PAB again (C.04.1.d)
    # Virtual points of an accelerated (Baku) round; counted for pairing, not for the standings.
    acceleration: float = 0.0

    @property
    def pairing_points(self) -> float:
        return self.points + self.acceleration


def entrants_for_round(
    history: dict[int, list[RoundRecord]],
    ratings: dict[int, int],
    round_number: int,
    acceleration: dict[int, dict[int, float]] | None = None,
) -> list[SwissEntrant]:
    """States of all entrants in ``history`` before ``round_number`` (rounds 1..round_number-1).

    Floats follow C.04.3 A.4: a player paired against one with a higher score floated up, the
    other down; the PAB counts as a downfloat.
    """
    acceleration = acceleration or {}
    past = round_number - 1

    def score_before(pid: int, rnd: int) -> float:
        recs = history.get(pid, [])[: rnd - 1]
        return sum(r.points for r in recs) + acceleration.get(pid, {}).get(rnd, 0.0)

    entrants = []
    for pid, records in history.items():
        recs = list(records[:past]) + [RoundRecord(ABSENT, 0.0)] * (past - len(records[:past]))
        colours, floats, opponents, had_bye = [], [], set(), False
        for rnd, rec in enumerate(recs, start=1):
            if rec.kind == PLAYED:
                colours.append(rec.colour or "-")
                opponents.add(rec.opponent)
                mine, theirs = score_before(pid, rnd), score_before(rec.opponent, rnd)
                floats.append("D" if mine > theirs else "U" if mine < theirs else "-")
            else:
                colours.append("-")
                floats.append("D" if rec.kind == PAB else "-")
            had_bye = had_bye or rec.kind in (PAB, FORFEIT_WIN)
        entrants.append(
            SwissEntrant(
                id=pid,
                rating=ratings.get(pid) or 0,
                points=sum(r.points for r in recs),
                colours=tuple(colours),
                floats=tuple(floats),
                opponents=frozenset(opponents),
                had_bye=had_bye,
                acceleration=acceleration.get(pid, {}).get(round_number, 0.0),
            )
        )
    return sorted(entrants, key=lambda e: e.id)
