"""The FIDE (Dutch) System of 2026 (C.04.3, effective from 1 February 2026).

A modified copy of the Dutch engine of py4swiss 0.3.1 (MIT licence, see LICENSE-py4swiss; the
matching computer and the TRF classes are still used from the installed package). Changed for the
2026 rules: a player who scores no more than a loss without playing gets no downfloat; the
pairing-allocated bye goes only to an eligible player (none who already scored a win's points
without playing), of the lowest score that lets the round be completed, with the fewest unplayed
games; every bracket is paired together with the completion of the whole round (no collapsed last
bracket); the quality criteria compare the scores paired, of downfloaters and of upfloaters'
opponents instead of score differences; pairing numbers count only the players who take part.
"""

from clubrating.tournaments.pairing.dutch2026.engine import Engine as Engine

__all__ = ["Engine"]
