from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

from clubrating.tournaments.pairing.dutch2026.bracket.bracket import Bracket
from clubrating.tournaments.pairing.dutch2026.criteria import QUALITY_CRITERIA
from clubrating.tournaments.pairing.dutch2026.player import Player, PlayerRole
from clubrating.tournaments.pairing.dutch2026.validity_matcher import ValidityMatcher


class BracketMatcher:
    """
    A class aiding in the pairing process for a bracket, specifically B.8.

    FIDE handbook: "B.8 Actions when no perfect candidate exists"
    Choose the best available candidate. In order to do so, consider that a candidate is better than another if it
    better satisfies a quality criterion (C5-C19) of higher priority; or, all quality criteria being equally satisfied,
    it is generated earlier than the other one in the sequence of the candidates (see B.6 or B.7).

    To determine the order of generation, additional updates need to be performed after initiation.
    """

    def __init__(self, bracket: Bracket, validity_matcher: ValidityMatcher) -> None:
        """
        Set up a new matching computer.

        The included graph contains exactly one vertex for each player and edges with weights between according to the
        absolute and quality criteria.
        """
        self._bracket: Bracket = bracket
        self._validity_matcher: ValidityMatcher = validity_matcher

        self._player_list: list[Player] = (
            bracket.mdp_list + bracket.resident_list + bracket.lower_list + bracket.rest_list
        )

        self._max_weight: DynamicUint = self._get_max_weight()
        self._zero_weight: DynamicUint = self._max_weight & 0
        # The weights are computed as Python integers, whose arithmetic is far cheaper than the matching computer's
        # DynamicUint, and converted once per edge (a weight's value never exceeds the width of the maximum weight).
        self._max_int: int = int(self._max_weight.to_binary(), 2)
        self._converted: dict[int, DynamicUint] = {}

        self._len: int = len(self._player_list)
        self._index_dict: dict[Player, int] = {player: i for i, player in enumerate(self._player_list)}

        self._computer: ComputerDutchOptimality = ComputerDutchOptimality(self._len, self._max_weight)
        self._weights: list[list[int]] = [[0] * self._len for _ in range(self._len)]

        self.matching: dict[Player, Player] = {}
        self._set_up_computer()
        self.update_matching()

    def _get_index(self, player: Player) -> int:
        """Return the vertex index of the given player."""
        return self._index_dict[player]

    def _dynamic(self, value: int) -> DynamicUint:
        """Return a DynamicUint of the maximum weight's width holding the given value (one object per value: the
        matching computer copies the weights it is given, and the objects are never changed)."""
        converted = self._converted.get(value)
        if converted is None:
            converted = DynamicUint(self._zero_weight)
            for shift in range(32 * ((value.bit_length() - 1) // 32), -1, -32):
                converted <<= 32
                converted |= (value >> shift) & 0xFFFFFFFF
            self._converted[value] = converted
        return converted

    def _set_weight(self, i: int, j: int, weight: int) -> None:
        """Set the edge weight between the vertices with the given indices to the given weight."""
        self._weights[i][j] = weight
        self._weights[j][i] = weight
        self._computer.set_edge_weight(i, j, self._dynamic(weight))

    def _remove_weight(self, i: int, j: int) -> None:
        """Remove the edge between the vertices with the given indices."""
        # An edge weight of zero counts as no edge.
        if not self._weights[i][j]:
            return

        self._weights[i][j] = 0
        self._weights[j][i] = 0
        self._computer.set_edge_weight(i, j, self._zero_weight)

    def _get_max_weight(self) -> DynamicUint:
        """
        Return a weight large enough to hold all quality criteria.

        Additionally, this also includes some space for transpositions and bye preferences.
        """
        weight = DynamicUint(1)

        # Bits for bye preferences in the PPB and LPB.
        weight.shift_grow(2)

        # Bits for quality criteria.
        for criterion in QUALITY_CRITERIA:
            weight.shift_grow(criterion.get_shift(self._bracket))

        # Bits for transpositions.
        weight.shift_grow(3 * self._bracket.bracket_bits)

        # Margin for the matching routine.
        weight.shift_grow(2)

        # Set all bits to 1.
        weight >>= 1
        weight -= (weight & 0) | 1

        return weight

    def _criteria_weight(self, player_1: Player, player_2: Player) -> int:
        """Return the quality criteria's part of the weight of a pair that may be paired in this bracket."""
        # Add the individual quality criteria weights from most important to least important and shift in order to not
        # overwrite any previously set bits. The shift amount is such that, even for the sum of all weights of a given
        # round pairing, the values of a quality criterion with lower importance can not overflow to parts reserved for
        # a criterion with higher importance.
        weight = 0
        bracket = self._bracket
        for criterion, shift in self._criteria:
            weight = (weight << shift) + criterion.get_weight(player_1, player_2, bracket)
        return weight

    @staticmethod
    def criteria_key(player: Player) -> tuple:
        """Everything of a player the quality criteria read (see QUALITY_CRITERIA): two pairs of players with the
        same keys have the same criteria weight, which is therefore computed once per pair of keys."""
        preference = player.color_preference
        return (
            player.role, player.points_with_acceleration, player.float_1, player.float_2, preference.side,
            preference.strength, player.color_difference, player.color_double, player.top_scorer, player.bye_rank,
        )

    def _set_up_computer(self) -> None:
        """Initialize the graph with a vertex for each player as well as edges with weights between them."""
        self._criteria = [(criterion, criterion.get_shift(self._bracket)) for criterion in QUALITY_CRITERIA]
        criteria_shift = sum(shift for _, shift in self._criteria)
        # There needs to be free space at the bottom for adding transposition preferences later on in order to enforce
        # D.1, D.2, and D.3.
        low_shift = 3 * self._bracket.bracket_bits + 1
        for _ in range(self._len):
            self._computer.add_vertex()

        # Every pair of the players still to pair gets an edge unless the absolute criteria forbid it, so this loop
        # runs over all pairs in every bracket; it is kept free of calls that are not needed.
        set_edge_weight = self._computer.set_edge_weight
        dynamic = self._dynamic
        weights = self._weights
        players = self._player_list
        zero = self._zero_weight
        outside = [player.role == PlayerRole.REST for player in players]
        byes = [int(player.bye_received) for player in players]
        # A pair with a player outside the bracket and the next score group weighs only by the bye preferences.
        rest_weights = {value: (value << criteria_shift) << low_shift for value in (1, 2, 3)}
        keys = [self.criteria_key(player) for player in players]
        criteria_weights: dict[tuple, int] = {}
        ids = [player.id for player in players]
        converted = self._converted
        for i, player_1 in enumerate(players):
            rest_1 = outside[i]
            bye_1 = 1 + byes[i]
            blocked = self._validity_matcher.blocked_opponents(player_1)
            for j in range(i + 1, self._len):
                if ids[j] in blocked:
                    set_edge_weight(i, j, zero)
                    continue
                # C.04.3 (2026): the round pairing is completed over all players still to pair, and the player
                # left over must be eligible for the pairing-allocated bye; this outweighs every quality criterion.
                if rest_1 or outside[j]:
                    weight = rest_weights[bye_1 + byes[j]]
                else:
                    key = (keys[i], keys[j])
                    criteria = criteria_weights.get(key)
                    if criteria is None:
                        criteria = criteria_weights[key] = self._criteria_weight(player_1, players[j])
                    weight = (((bye_1 + byes[j]) << criteria_shift) + criteria) << low_shift
                weights[i][j] = weights[j][i] = weight
                set_edge_weight(i, j, converted.get(weight) or dynamic(weight))

    def add_to_weight(self, player_1: Player, player_2: Player, value: int) -> None:
        """Add the given integer value to the edge weight between the given players."""
        i, j = self._get_index(player_1), self._get_index(player_2)

        # An edge weight of zero counts as no edge.
        if not self._weights[i][j]:
            return

        self._set_weight(i, j, self._weights[i][j] + value)

    def add_to_weights(self, player: Player, player_list: list[Player], value: int, increment: bool = False) -> None:
        """
        Add the given value to each edge weight between the given player and any player in the given list in order.

        The value can optionally be incremented by 1 after each addition.
        """
        for other in player_list:
            self.add_to_weight(player, other, value)
            value += int(increment)

    def remove_weight(self, player_1: Player, player_2: Player) -> None:
        """Remove the edge between the given players."""
        i, j = self._get_index(player_1), self._get_index(player_2)
        self._remove_weight(i, j)

    def remove_weights(self, player: Player, player_list: list[Player]) -> None:
        """Remove each edge between the given player and any player in the given list."""
        for other in player_list:
            self.remove_weight(player, other)

    def update_matching(self) -> None:
        """Compute a new matching efficiently by only considering vertices which were marked as updated."""
        self._computer.compute_matching()
        matching = self._computer.get_matching()

        players = self._player_list
        self.matching = {players[i]: players[j] for i, j in enumerate(matching)}

    def finalize_match(self, player_1: Player, player_2: Player) -> None:
        """Finalize the fact that the given player are to be paired with one another."""
        i, j = self._get_index(player_1), self._get_index(player_2)

        # Removing all edges between the given players and any other players besides one another will force the matching
        # algorithm to match the given players with each other.
        for k in range(self._len):
            self._remove_weight(i, k)
            self._remove_weight(j, k)
        self._set_weight(i, j, self._max_int)
