from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole

_OUTSIDE = (PlayerRole.LOWER, PlayerRole.REST)


class C7(QualityCriterion):
    """
    C.04.3 (2026), quality criteria: choose the downfloaters so as to maximise the number of pairs and
    then the scores paired in the next bracket (see C6).
    """

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        return bracket.low_bracket_bits + bracket.score_bits

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, bracket: Bracket) -> int:
        if player_2.role != PlayerRole.LOWER:
            return 0
        return (1 << bracket.score_bits) + (1 << bracket.score_shifts[player_1.points_with_acceleration])
