from py4swiss.engines.common import Float

from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole

_OUTSIDE = (PlayerRole.LOWER, PlayerRole.REST)


class C19(QualityCriterion):
    """
    C.04.3 (2026), quality criteria: minimise the scores of the opponents of players who get the same
    upfloat as in the round two before.
    """

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        return bracket.score_bits if bracket.two_rounds_played else 0

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, bracket: Bracket) -> int:
        if player_2.role in _OUTSIDE or not bracket.two_rounds_played:
            return 0
        upfloat = player_2.float_2 == Float.UP and player_1.points_with_acceleration > player_2.points_with_acceleration
        if upfloat:
            return 0
        return 1 << bracket.score_shifts[player_1.points_with_acceleration]
