"""The FIDE (Dutch) System until 31 January 2026 (C.04.3 as amended in 2017), through py4swiss 0.3.1.

One correction to the library: pairing numbers count only the players who take part in the round's
pairing or took part in an earlier one, so that a higher seed who is absent in round 1 does not
shift the alternation of the initial colour (C.04.3 E.5 with C.04.2 on pairing numbers; JaVaFo and
bbpPairings do the same).
"""

from __future__ import annotations

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import Pairing, PairingError
from py4swiss.engines.dutch.bracket import BracketPairer, Brackets
from py4swiss.engines.dutch.player import Player, get_player_infos_from_trf
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.trf import ParsedTrf
from py4swiss.trf.results import ResultToken

__all__ = ["Engine"]

_IN_PAIRING = frozenset(
    {ResultToken.FORFEIT_WIN, ResultToken.FORFEIT_LOSS, ResultToken.PAIRING_ALLOCATED_BYE}
)


def pairing_numbers(trf: ParsedTrf) -> dict[int, int]:
    """Starting number -> pairing number over the players in this or an earlier round's pairing."""
    round_number = min(len(section.results) for section in trf.player_sections)
    numbers: dict[int, int] = {}
    for section in sorted(trf.player_sections, key=lambda s: s.starting_number):
        took_part = len(section.results) == round_number or any(
            r.result.is_played() or r.result in _IN_PAIRING for r in section.results
        )
        if took_part:
            numbers[section.starting_number] = len(numbers) + 1
    return numbers


class Engine(DutchEngine):
    @classmethod
    def generate_pairings(cls, trf: ParsedTrf) -> list[Pairing]:
        """As py4swiss's Dutch engine, with the pairing numbers above."""
        player_pairs: list[tuple[Player, Player]] = []
        round_number = min(len(section.results) for section in trf.player_sections) + 1
        initial_color = trf.x_section.configuration.first_round_color

        players = get_player_infos_from_trf(trf)
        if not trf.x_section.configuration.by_rank:
            numbers = pairing_numbers(trf)
            for player in players:
                player.number = numbers[player.id]
        players.sort(reverse=True)

        validity_matcher = ValidityMatcher(players, trf.x_section.forbidden_pairs)
        brackets = Brackets(players, round_number)
        if not validity_matcher.is_valid_matching():
            raise PairingError("Round can not be paired")

        while not brackets.is_finished():
            bracket_pairer = BracketPairer(brackets.get_current_bracket(), validity_matcher, initial_color)
            bracket_pairings = cls._get_bracket_pairs(bracket_pairer)
            if bracket_pairings is None:
                brackets.collapse()
            else:
                brackets.apply_bracket_pairings(bracket_pairings)
                player_pairs.extend(bracket_pairings)

        player_pairs.sort(key=cls._get_player_pair_score, reverse=True)
        return [cls._get_pairing(player_pair) for player_pair in player_pairs]
