from clubrating.tournaments.pairing.dutch2026.criteria.color.e1 import E1
from clubrating.tournaments.pairing.dutch2026.criteria.color.e2 import E2
from clubrating.tournaments.pairing.dutch2026.criteria.color.e3 import E3
from clubrating.tournaments.pairing.dutch2026.criteria.color.e4 import E4
from clubrating.tournaments.pairing.dutch2026.criteria.color.e5 import E5

__all__ = ["E1", "E2", "E3", "E4", "E5"]
