from py4swiss.matching_computer import ComputerDutchValidity

from clubrating.tournaments.pairing.dutch2026.criteria.absolute import C1, C2, C3
from clubrating.tournaments.pairing.dutch2026.player import Player


class ValidityMatcher:
    """A class used to determine whether the current choice of pairings allows completion of the round-pairing."""

    def __init__(self, players: list[Player], forbidden_pairs: set[tuple[int, int]]) -> None:
        """
        Set up a new matching computer.

        The included graph contains exactly one vertex for each player and edges with weights between them depending on
        whether they are allowed to be paired with each other or not.
        """
        self._players: list[Player] = players
        self._forbidden_pairs: set[tuple[int, int]] = forbidden_pairs

        self._len: int = len(players) + len(players) % 2
        self._computer: ComputerDutchValidity = ComputerDutchValidity(self._len, 1)
        self._index_dict: dict[Player, int] = {player: i for i, player in enumerate(self._players)}
        self._bye_score: int | None = None
        # The absolute criteria depend only on the round's history, which stays fixed while a round is paired, and
        # every bracket asks them again for each pair of the players still to pair.
        self._allowed: dict[tuple[int, int], bool] = {}
        self._blocked: dict[int, set[int]] = {}

        self._set_up_computer()

    def _set_up_computer(self) -> None:
        """
        Configure the matching computer by setting up vertices and edge weights.

        Each vertex represents a player (and potentially an extra one for a bye if needed).
        Edge weights are determined by the validity of pairings according to the absolute criteria C.1, C.2, and C.3:
            - 1 if the pairing between two players is allowed
            - 0 if it violates any absolute criteria
        """
        for _ in range(self._len):
            self._computer.add_vertex()

        for i, player_1 in enumerate(self._players):
            for j, player_2 in enumerate(self._players[i + 1 :]):
                allowed = self.is_allowed_pair(player_1, player_2)
                if not allowed:
                    self._blocked.setdefault(player_1.id, set()).add(player_2.id)
                    self._blocked.setdefault(player_2.id, set()).add(player_1.id)
                self._computer.set_edge_weight(i, i + j + 1, int(allowed))

        if len(self._players) % 2 == 1:
            for i, player in enumerate(self._players):
                allowed = C2.evaluate(player, player)
                self._computer.set_edge_weight(i, len(self._players), int(allowed))

    def restrict_bye_to_lowest_score(self) -> None:
        """Leave the pairing-allocated bye only to the eligible players of the lowest score that still
        lets the round be completed (C.04.3 (2026): the PAB goes to the lowest-scoring eligible player).
        Higher-scoring players are then treated as not eligible for the bye."""
        if len(self._players) % 2 == 0:
            return
        bye_vertex = len(self._players)
        for score in sorted({player.points_with_acceleration for player in self._players}):
            for i, player in enumerate(self._players):
                allowed = C2.evaluate(player, player) and player.points_with_acceleration <= score
                self._computer.set_edge_weight(i, bye_vertex, int(allowed))
            if self.is_valid_matching():
                for player in self._players:
                    if player.points_with_acceleration > score:
                        player.bye_received = True
                self._bye_score = score
                self._rank_unplayed_games(score)
                return

    def bye_bits(self, upper: list[Player], lower: list[Player]) -> int:
        """Bits for minimising the PAB assignee's unplayed games in the bracket of ``upper`` (its
        moved-down and resident players; ``lower``: every player below). The criterion decides in
        the bracket that holds the assignee's score group when the round can be completed with
        these players paired among themselves (the assignee being the single one left over) and
        the players below among themselves."""
        if self._bye_score is None or not upper:
            return 0
        if self._bye_score < min(player.points_with_acceleration for player in upper):
            return 0
        at_score = [player for player in upper + lower if player.bye_rank is not None]
        if not at_score:
            return 0
        players = upper + lower
        size = len(players) + len(players) % 2
        computer = ComputerDutchValidity(size, 1)
        for _ in range(size):
            computer.add_vertex()
        in_upper = [True] * len(upper) + [False] * len(lower)
        for i, player_1 in enumerate(players):
            for j in range(i + 1, len(players)):
                if in_upper[i] == in_upper[j]:
                    computer.set_edge_weight(i, j, int(self.is_allowed_pair(player_1, players[j])))
        if len(players) % 2:
            for i, player in enumerate(upper):
                computer.set_edge_weight(i, len(players), int(C2.evaluate(player, player)))
        computer.compute_matching()
        if any(i == j for i, j in enumerate(computer.get_matching())):
            return 0
        return 2 * len(at_score).bit_length()

    def _rank_unplayed_games(self, score: int) -> None:
        """Rank the players of the PAB assignee's score by their played games, most played first."""
        at_score = [player for player in self._players if player.points_with_acceleration == score]
        counts = sorted((len(player.colors) for player in at_score), reverse=True)
        rank = {count: index for index, count in enumerate(counts)}
        for player in at_score:
            player.bye_rank = rank[len(player.colors)]

    def is_allowed_pair(self, player_1: Player, player_2: Player) -> bool:
        """Check whether the given players are allowed to be paired together."""
        key = (player_1.id, player_2.id)
        allowed = self._allowed.get(key)
        if allowed is None:
            forbidden = key in self._forbidden_pairs or (player_2.id, player_1.id) in self._forbidden_pairs
            allowed = not forbidden and C1.evaluate(player_1, player_2) and C3.evaluate(player_1, player_2)
            self._allowed[key] = self._allowed[(player_2.id, player_1.id)] = allowed
        return allowed

    def blocked_opponents(self, player: Player) -> set[int]:
        """The ids of the players of the round the given player may not be paired with (``is_allowed_pair``)."""
        return self._blocked.setdefault(player.id, set())

    def finalize_match(self, player_1: Player, player_2: Player) -> None:
        """Finalize the fact that the given players will be paired with one another."""
        i = self._index_dict[player_1]
        j = self._index_dict[player_2]

        for k in range(self._len):
            self._computer.set_edge_weight(i, k, 0)
            self._computer.set_edge_weight(j, k, 0)

        self._computer.set_edge_weight(i, j, 1)

    def is_valid_matching(self) -> bool:
        """
        Check whether the current edge weights allow for a full pairing of all players.

        This means that the absolute criteria C.1, C.2, and C.3 need to be adhered to whilst still pairing each player
        to exactly one other player.
        """
        self._computer.compute_matching()
        return all(i != j for i, j in enumerate(self._computer.get_matching()))
