from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole


class C10(QualityCriterion):
    """
    Implementation of the quality criterion C.10.

    FIDE handbook: "C Pairing Criteria | Quality Criteria | C.10"
    minimize the number of players who do not get their colour preference.
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
        Case 2: Both players have the same color preference side
        """
        # Only pairings between MDPs or residents count as pairs.
        if player_2.role == PlayerRole.LOWER:
            return 0

        # There will be a player in a pair who does not get their color preference, if and only if both players in the
        # pair have the same color preference side. Furthermore, at least one player in each pair will get their color
        # preference. Thus, with this choice of weight, the maximum round pairing weight sum will minimize the number of
        # paired players that do not get their color preference.
        conflict = player_1.color_preference.side.conflicts(player_2.color_preference.side)
        return int(not conflict)
