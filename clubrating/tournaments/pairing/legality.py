"""Checks that a Swiss round's pairing obeys FIDE's absolute criteria (C.04.1, C.04.3 C.1-C.3)."""

from __future__ import annotations

from dataclasses import dataclass

from clubrating.tournaments.pairing.history import SwissEntrant


@dataclass(frozen=True)
class Pairing:
    """One board. ``black`` is None for the pairing-allocated bye (``white`` gets it)."""

    board: int
    white: int
    black: int | None

    @property
    def is_bye(self) -> bool:
        return self.black is None


def _colour_ok(colours: list[str]) -> bool:
    played = [c for c in colours if c in "wb"]
    if abs(played.count("w") - played.count("b")) > 2:
        return False
    return not any(played[i] == played[i + 1] == played[i + 2] for i in range(len(played) - 2))


def is_topscorer(entrant: SwissEntrant, round_number: int, total_rounds: int) -> bool:
    """C.04.3 A.7: over 50% of the maximum possible score when pairing the final round."""
    return round_number == total_rounds and entrant.pairing_points > (round_number - 1) / 2


def pairing_violations(
    entrants: list[SwissEntrant], pairings: list[Pairing], *, round_number: int, total_rounds: int
) -> list[str]:
    """Human-readable list of broken absolute rules; empty when the pairing is legal."""
    by_id = {e.id: e for e in entrants}
    problems: list[str] = []
    seen: list[int] = [p for pair in pairings for p in (pair.white, pair.black) if p is not None]
    if sorted(seen) != sorted(by_id):
        problems.append(f"players paired {sorted(seen)} differ from entrants {sorted(by_id)}")
    byes = [p for p in pairings if p.is_bye]
    if len(byes) > 1 or (len(byes) == 1) != (len(by_id) % 2 == 1):
        problems.append(f"wrong number of byes: {len(byes)}")
    for pair in pairings:
        white = by_id.get(pair.white)
        if white is None:
            continue
        if pair.is_bye:
            if white.had_bye:
                problems.append(f"{pair.white} gets a second pairing-allocated bye")
            continue
        black = by_id.get(pair.black)
        if black is None:
            continue
        if pair.black in white.opponents:
            problems.append(f"rematch {pair.white}-{pair.black}")
        for entrant, colour in ((white, "w"), (black, "b")):
            if not _colour_ok([*entrant.colours, colour]) and not is_topscorer(
                entrant, round_number, total_rounds
            ):
                problems.append(f"colour rule broken for {entrant.id} ({pair.white}-{pair.black})")
    return problems
