from clubrating.tournaments.pairing.dutch2026.criteria.absolute.c1 import C1
from clubrating.tournaments.pairing.dutch2026.criteria.absolute.c2 import C2
from clubrating.tournaments.pairing.dutch2026.criteria.absolute.c3 import C3

__all__ = ["C1", "C2", "C3"]
