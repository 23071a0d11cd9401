from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole


class C5(QualityCriterion):
    """
    Implementation of the quality criterion C.5.

    FIDE handbook: "C Pairing Criteria | Quality Criteria | C.5"
    maximize the number of pairs (equivalent to: minimize the number of downfloaters).
    """

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        """Return the number of bits needed to represent all players (MDPs and residents) of the given bracket."""
        # Since the weight for each pair will be at most 1, the number of players in the bracket will always be
        # greater than the sum of all weights.
        return bracket.bracket_bits

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, bracket: Bracket) -> int:
        """Return a weight of 1, if both players are either MDPs or residents, else 0."""
        # Only pairings between MDPs or residents count as pairs. Thus, with this choice of weight, the maximum round
        # pairing weight sum will maximize the number of pairs.
        return int(player_2.role != PlayerRole.LOWER)
