from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria.abstract import QualityCriterion
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole

_OUTSIDE = (PlayerRole.LOWER, PlayerRole.REST)


class C6(QualityCriterion):
    """
    C.04.3 (2026), quality criteria: maximise the scores of the players paired in the bracket (pair the
    moved-down players with the highest scores).

    A pair counts with the score of its higher-ranked player, each score in its own bits, higher scores
    in higher bits.
    """

    @classmethod
    def get_shift(cls, bracket: Bracket) -> int:
        return bracket.score_bits

    @classmethod
    def get_weight(cls, player_1: Player, player_2: Player, bracket: Bracket) -> int:
        if player_2.role in _OUTSIDE:
            return 0
        return 1 << bracket.score_shifts[player_1.points_with_acceleration]
