from clubrating.tournaments.pairing.dutch2026.criteria.quality.c5 import C5
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c6 import C6
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c7 import C7
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c8 import C8
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c9 import C9
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c10 import C10
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c11 import C11
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c12 import C12
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c13 import C13
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c14 import C14
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c15 import C15
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c16 import C16
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c17 import C17
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c18 import C18
from clubrating.tournaments.pairing.dutch2026.criteria.quality.c19 import C19

__all__ = ["C5", "C6", "C7", "C8", "C9", "C10", "C11", "C12", "C13", "C14", "C15", "C16", "C17", "C18", "C19"]
