from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player


class CBye(QualityCriterion):
    """
    C.04.3 (2026), quality criteria: minimise the number of unplayed games of the PAB assignee.

    Pairing a player of the assignee's score is worth more the more games that player has not played,
    so the one left over for the bye is one with the fewest unplayed games.
    """

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        return bracket.bye_bits

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, bracket: Bracket) -> int:
        if not bracket.bye_bits:
            return 0
        return (player_1.bye_rank or 0) + (player_2.bye_rank or 0)
