from py4swiss.engines.common import ColorPreferenceStrength

from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole


class C11(QualityCriterion):
    """
    Implementation of the quality criterion C.11.

    FIDE handbook: "C Pairing Criteria | Quality Criteria | C.11"
    minimize the number of players who do not get their strong colour preference.
    """

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        """Return the number of bits needed to represent all players (MDPs and residents) of the given bracket."""
        # See C.5.
        return bracket.bracket_bits

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, bracket: Bracket) -> int:
        """
        Return a weight of 1 except for some special cases.

        Case 1: Either player is a lower resident
        Case 2: Both players have a strong color preference for the same side
        """
        # Only pairings between MDPs or residents count as pairs.
        if player_2.role == PlayerRole.LOWER:
            return 0

        # See C.10 for comparison.
        strong = all(p.color_preference.strength >= ColorPreferenceStrength.STRONG for p in (player_1, player_2))
        conflict = player_1.color_preference.side.conflicts(player_2.color_preference.side)
        return int(not (strong and conflict))
