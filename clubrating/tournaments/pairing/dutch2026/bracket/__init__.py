from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.bracket.bracket_pairer import BracketPairer
from clubrating.tournaments.pairing.dutch2026.bracket.brackets import Brackets

__all__ = ["Bracket", "BracketPairer", "Brackets"]
