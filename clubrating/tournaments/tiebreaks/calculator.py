"""Computing the standings: each tie-break's value per player and the ranking.

Each participant's rounds are :class:`RoundRecord` rows (see ``pairing.history``), one per round:
played games, forfeits, the pairing-allocated bye (PAB), and requested byes / missed rounds
(``ABSENT`` with the points received: 1 = full-point bye, ½ = half-point bye, 0 = zero-point bye or
not paired).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from clubrating.tournaments.pairing.history import ABSENT, FORFEIT_LOSS, FORFEIT_WIN, PLAYED, RoundRecord
from clubrating.tournaments.tiebreaks.codes import (
    _LOWER_FIRST,
    DRAW_POINTS,
    EDITION_2023,
    EDITION_2026,
    WIN_POINTS,
    TiebreakSpec,
    UnknownTiebreak,
)
from ratings.rules.expectation import table as expected_table
from ratings.rules.performance import dp
from ratings.rules.rounding import round_half_away


@dataclass
class Participant:
    id: int
    rating: int | None = None
    rounds: list[RoundRecord] = field(default_factory=list)
    number: int | None = None  # the tournament pairing number (TPN)

    @property
    def points(self) -> float:
        return sum(r.points for r in self.rounds)


@dataclass
class StandingRow:
    rank: int
    id: int
    points: float
    tiebreaks: list[float]


# An opponent value's (score, contribution), the order the cuts of art. 14 compare by.
_SCORE = itemgetter(1, 2)

# The modifiers of art. 14: (least significant values cut, most significant values cut).
_CUTS = {"C1": (1, 0), "C2": (2, 0), "M1": (1, 1), "M2": (2, 2)}


def _is_vur(rec: RoundRecord) -> bool:
    return rec.kind in (ABSENT, FORFEIT_LOSS) and rec.points < WIN_POINTS


def _is_played(rec: RoundRecord) -> bool:
    return rec.kind == PLAYED and rec.opponent is not None


def _is_forfeit(rec: RoundRecord) -> bool:
    return rec.kind in (FORFEIT_WIN, FORFEIT_LOSS) and rec.opponent is not None


class _Calculator:
    def __init__(self, participants: list[Participant], round_robin: bool, edition: str = EDITION_2023,
                 final_round: int | None = None):
        self.by_id = {p.id: p for p in participants}
        self.round_robin = round_robin
        self.edition = edition
        self.rounds = max((len(p.rounds) for p in participants), default=0)
        # FB counts the last round as drawn once it is the tournament's last (before, FB is BH).
        self.fore_round = self.rounds if final_round is None or final_round == self.rounds else 0
        self.max_points = WIN_POINTS * self.rounds
        if round_robin and len(participants) % 2:
            # An odd round robin gives everyone one free round per cycle: of n rounds a player
            # can score in n - 1 only, and Koya's "50 % of the maximum score" counts those.
            n = len(participants)
            self.max_points = WIN_POINTS * self.rounds * (n - 1) / n
        self.adjusted = {p.id: self._adjusted_score(p) for p in participants}
        self.points = {p.id: p.points for p in participants}  # each participant's, summed once
        self._cache: dict[str, dict[int, float]] = {}
        self._values: dict[tuple[int, str], list[tuple[bool, float, float]]] = {}
        self._rounds: dict[tuple[int, bool], list[tuple[bool, float, float]]] = {}

    @property
    def rr_forfeits_played(self) -> bool:
        """2026, art. 15.2: in a round robin a forfeit counts as the game it replaced."""
        return self.round_robin and self.edition == EDITION_2026

    def _counts_as_game(self, rec: RoundRecord) -> bool:
        """A round with an opponent for SB, KS and DE: a game, or a round robin's forfeit (2026)."""
        return _is_played(rec) or (self.rr_forfeits_played and _is_forfeit(rec))

    def _own_counts(self, rec: RoundRecord) -> bool:
        """A round that counts as played for the participant's own counts (art. 7): a game, and by
        2026 in a round robin a forfeit win (a forfeit loss stays unplayed, art. 15.2)."""
        return _is_played(rec) or (
            self.rr_forfeits_played and rec.kind == FORFEIT_WIN and rec.opponent is not None)

    def _adjusted_score(self, p: Participant) -> float:
        """Art. 16.4 (2023) / 16.3 (2026): VURs after the last non-VUR round (withdrawal) count as
        draws."""
        rounds = p.rounds
        last = len(rounds) - 1
        while last >= 0 and _is_vur(rounds[last]):
            last -= 1
        total = 0.0
        for i, (_kind, points, opponent, _colour) in enumerate(rounds):
            if i <= last or opponent is not None:
                total += points
            else:
                total += 0.0 if self.round_robin else DRAW_POINTS
        return total

    def _dummy(self, own: float, rec: RoundRecord, scores: dict[int, float]) -> float:
        """The dummy opponent's score for an own unplayed round (art. 16.3 of 2023, 16.4 of 2026),
        ``own`` the participant's own score (its FB score for Fore Buchholz)."""
        if self.edition != EDITION_2026:
            return own
        if _is_forfeit(rec):
            return min(own, scores[rec.opponent])  # 16.4.1
        return min(own, DRAW_POINTS * self.rounds)  # 16.4.2

    def _paired_in_last_round(self, p: Participant) -> bool:
        last = self.fore_round - 1
        return 0 <= last < len(p.rounds) and p.rounds[last].opponent is not None

    def _fore_scores(self) -> dict[int, float]:
        """Art. 8.3 (FB): every game of the last round, played or forfeited, counts as a draw. A
        participant paired in the last round has no round after a withdrawal (16.3), so his other
        rounds count as scored; the others keep their adjusted score."""
        return self._per_participant("FB-score", lambda q: (
            sum(r.points for r in q.rounds[:-1]) + DRAW_POINTS
            if self._paired_in_last_round(q) else self.adjusted[q.id]))

    def _opponent_rounds(self, p: Participant, fore: bool = False) -> list[tuple[bool, float, float]]:
        """(is_vur, opponent score, own points) per round that counts, for BH, FB and SB (read once
        per participant: BH, its cuts and SB share them). For FB the last round's scheduled
        opponent counts as met, with every score as ``_fore_scores`` has it."""
        key = (p.id, fore)
        found = self._rounds.get(key)
        if found is not None:
            return found
        scores = self._fore_scores() if fore else self.adjusted
        own = self.points[p.id]
        if fore and self._paired_in_last_round(p):
            own = own - p.rounds[self.fore_round - 1].points + DRAW_POINTS
        values = self._rounds[key] = []
        append = values.append
        forfeits = self.rr_forfeits_played  # ``_counts_as_game`` inlined: it runs per player and round
        round_robin = self.round_robin
        last = self.fore_round - 1 if fore else -1
        for i, rec in enumerate(p.rounds):
            kind, points, opponent, _colour = rec
            if opponent is not None and (kind == PLAYED or (forfeits and kind in (FORFEIT_WIN, FORFEIT_LOSS))
                                         or i == last):
                append((False, scores[opponent], points))
            elif round_robin:
                if opponent is not None:
                    append((_is_vur(rec), 0.0, points))
            else:
                append((_is_vur(rec), self._dummy(own, rec, scores), points))
        return values

    def _opponent_values(
        self, p: Participant, sonneborn: bool, fore: bool = False
    ) -> list[tuple[bool, float, float]]:
        """(is_vur, opponent score, contribution) per round, for BH, FB and SB."""
        if sonneborn:
            return [(vur, score, score * points) for vur, score, points in self._opponent_rounds(p, fore)]
        return [(vur, score, score) for vur, score, _points in self._opponent_rounds(p, fore)]

    def opponent_sum(self, p: Participant, spec: TiebreakSpec) -> float:
        # BH and its cut variants (BH/C1, BH/M1, ...) share one participant's values: worked out
        # once per kind, copied because the cuts remove from them.
        code = spec.code
        cuts = _CUTS.get(spec.modifier)
        if cuts is None:  # nothing cut: the sum of the contributions, in the rounds' order
            rounds = self._opponent_rounds(p, fore=code == "FB")
            if code == "SB":
                return sum([score * points for _vur, score, points in rounds])
            return sum([score for _vur, score, _points in rounds])
        key = (p.id, code)
        values = self._values.get(key)
        if values is None:
            values = self._values[key] = self._opponent_values(p, code == "SB", fore=code == "FB")
        values = list(values)
        low, high = cuts
        low = min(low, len(values))
        high = min(high, len(values) - low)
        for _ in range(low):
            lowest = min(values, key=_SCORE)
            # The lowest VUR first (the lowest of all without a VUR among them).
            vurs = [v for v in values if v[0]]
            lowest_vur = min(vurs, key=_SCORE) if vurs else lowest
            values.remove(lowest if lowest[2] > lowest_vur[2] else lowest_vur)
        for _ in range(high):
            values.remove(max(values, key=_SCORE))
        return sum([v[2] for v in values])

    def _rated_games(self, p: Participant) -> tuple[int, list[tuple[int, float]]]:
        played = [r for r in p.rounds if _is_played(r)]
        rated = [
            (self.by_id[r.opponent].rating, r.points)
            for r in played
            if self.by_id[r.opponent].rating
        ]
        return len(played), rated

    def aro(self, p: Participant, modifier: str = "") -> float:
        """Art. 10.1; a cut or median (art. 14) drops the lowest (highest) rated opponent while
        every game left counts a rated opponent: an unrated opponent is the one dropped first."""
        played, rated = self._rated_games(p)
        rated = sorted(rated)
        low, high = _CUTS.get(modifier, (0, 0))
        for lowest in [True] * low + [False] * high:
            if rated and played == len(rated):
                rated = rated[1:] if lowest else rated[:-1]
            played -= 1
        if not rated:
            return 0
        return int(sum(r for r, _ in rated) / len(rated) + 0.5)

    def tpr(self, p: Participant) -> float:
        _, rated = self._rated_games(p)
        if not rated:
            return 0
        return self.aro(p) + dp(sum(s for _, s in rated) / len(rated))

    def ptp(self, p: Participant) -> int:
        """Art. 10.3, perfect tournament performance: the lowest whole rating R whose expected
        scores against the rated opponents of the games played (FIDE's table of expected scores,
        Rating Regulations 8.1.2) add up to at least the points scored against them; a zero score
        gives the lowest opponent's rating − 800, a full score the highest's + 800."""
        _, rated = self._rated_games(p)
        if not rated:
            return 0
        ratings = [rating for rating, _ in rated]
        target = round(sum(points for _, points in rated) * 100)  # in hundredths: exact sums
        if target <= 0:
            return min(ratings) - 800
        if target >= 100 * len(ratings):
            return max(ratings) + 800
        low, high = min(ratings) - 800, max(ratings) + 800  # expects 0 < target <= n: sum(low) < target

        def reaches(r: int) -> bool:
            return sum(round(expected_table(r - rating) * 100) for rating in ratings) >= target

        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if reaches(middle) else (middle, high)
        return high

    def _per_participant(self, name: str, compute) -> dict[int, float]:
        if name not in self._cache:
            self._cache[name] = {pid: compute(q) for pid, q in self.by_id.items()}
        return self._cache[name]

    def opponents_average(self, p: Participant, code: str) -> float:
        """The average over the opponents of the games played (art. 8.2 AOB: their Buchholz, two
        decimals; art. 10.4 APRO / 10.5 APPO: their TPR / PTP, whole numbers, an opponent without
        a rated game left out)."""
        if code == "AOB":
            values = self._per_participant("BH", lambda q: self.opponent_sum(q, TiebreakSpec("BH")))
        else:
            rated = self._per_participant("rated", lambda q: bool(self._rated_games(q)[1]))
            compute = self.tpr if code == "APRO" else self.ptp
            values = {pid: value for pid, value in self._per_participant(code, compute).items() if rated[pid]}
        found = [values[r.opponent] for r in p.rounds if _is_played(r) and r.opponent in values]
        if not found:
            return 0
        return round_half_away(sum(found) / len(found), 2 if code == "AOB" else 0)

    def koya(self, p: Participant) -> float:
        limit = self.max_points / 2
        return sum(
            r.points for r in p.rounds
            if r.opponent is not None and self.points[r.opponent] >= limit
        )

    def progressive(self, p: Participant, modifier: str) -> float:
        """Art. 7.5: the sum of the cumulative scores after each round; Cut-n leaves out the first
        n rounds' (art. 14.1.1: PS-C1 drops the score after round 1)."""
        running, sums = 0.0, []
        for rec in p.rounds:
            running += rec.points
            sums.append(running)
        return sum(sums[{"C1": 1, "C2": 2}.get(modifier, 0):])

    def standard_points(self, p: Participant) -> float:
        """Art. 7.7 (2026): 1 for a round in which the participant scored more than the scheduled
        opponent (or got more than a draw's points without playing), ½ for the same score (or a
        draw's points without playing). A double forfeit is lost by both (no game was drawn)."""
        total = 0.0
        for i, rec in enumerate(p.rounds):
            if rec.opponent is not None and rec.kind in (PLAYED, FORFEIT_WIN, FORFEIT_LOSS):
                other = self.by_id[rec.opponent].rounds
                theirs = other[i].points if i < len(other) else 0.0
                if rec.kind == FORFEIT_LOSS and theirs <= rec.points:
                    continue
                total += 1.0 if rec.points > theirs else DRAW_POINTS if rec.points == theirs else 0.0
            else:
                points = rec.points
                total += 1.0 if points > DRAW_POINTS else DRAW_POINTS if points == DRAW_POINTS else 0.0
        return total

    def value(self, p: Participant, spec: TiebreakSpec) -> float:
        code = spec.code
        if code in ("BH", "FB", "SB"):
            return self.opponent_sum(p, spec)
        if code in ("AOB", "APRO", "APPO"):
            return self.opponents_average(p, code)
        if code == "PTP":
            return self.ptp(p)
        if code == "WIN":
            return sum(1 for r in p.rounds if r.points >= WIN_POINTS)
        if code == "WON":
            return sum(1 for r in p.rounds if self._own_counts(r) and r.points >= WIN_POINTS)
        if code == "BPG":
            return sum(1 for r in p.rounds if self._own_counts(r) and r.colour == "b")
        if code == "BWG":
            return sum(1 for r in p.rounds
                       if self._own_counts(r) and r.colour == "b" and r.points >= WIN_POINTS)
        if code == "ARO":
            return self.aro(p, spec.modifier)
        if code == "TPR":
            return self.tpr(p)
        if code == "KS":
            return self.koya(p)
        if code == "PS":
            return self.progressive(p, spec.modifier)
        if code == "REP":
            return sum(1 for r in p.rounds if not _is_vur(r))
        if code == "STD":
            return self.standard_points(p)
        if code == "TPN":
            return p.number or 0
        if code == "RTNG":
            return p.rating or 0
        raise UnknownTiebreak(code)

    def direct_encounter(self, group: list[Participant]) -> dict[int, float]:
        """Points each scored in games played among ``group`` (a Swiss forfeit does not count).
        By the 2026 edition two who met more than once add the average of their games (6.1.2)."""
        ids = {p.id for p in group}
        scores = {}
        for p in group:
            met: dict[int, list[float]] = {}
            for r in p.rounds:
                if self._counts_as_game(r) and r.opponent in ids:
                    met.setdefault(r.opponent, []).append(r.points)
            if self.edition == EDITION_2026:
                scores[p.id] = sum(sum(pts) / len(pts) for pts in met.values())
            else:
                scores[p.id] = sum(sum(pts) for pts in met.values())
        return scores

    def games_in(self, p: Participant, ids: set[int]) -> int:
        """The encounters with ``ids`` that DE counts (2026: each opponent once, 6.1.2)."""
        met = [r.opponent for r in p.rounds if self._counts_as_game(r) and r.opponent in ids]
        return len(set(met)) if self.edition == EDITION_2026 else len(met)

    def met_all(self, group: list[Participant]) -> bool:
        ids = {p.id for p in group}
        return all(
            ids - {p.id} <= {r.opponent for r in p.rounds if self._counts_as_game(r)} for p in group
        )


def _split_by_de(
    calc: _Calculator, group: list[Participant], values: dict[int, float], top: bool = True
) -> list[list[Participant]]:
    """Order a tied group by direct encounter (art. 6), recursively on the still-tied subgroups.

    The reported value is each player's score against the whole tied group (0 when not tied)."""
    if len(group) == 1:
        if top:
            values[group[0].id] = 0.0
        return [group]
    scores = calc.direct_encounter(group)
    if top:
        values.update(scores)
    if calc.met_all(group):
        distinct = sorted({scores[p.id] for p in group}, reverse=True)
        if len(distinct) == 1:
            return [group]
        parts = []
        for value in distinct:
            sub = [p for p in group if scores[p.id] == value]
            parts.extend(_split_by_de(calc, sub, values, top=False))
        return parts
    # Not everyone met: a player is placed first only if no other could still reach his score.
    ids = {p.id for p in group}
    games = {p.id: calc.games_in(p, ids) for p in group}
    best = max(group, key=lambda p: scores[p.id])
    others = [p for p in group if p is not best]
    if all(scores[best.id] > scores[q.id] + WIN_POINTS * (len(group) - 1 - games[q.id]) for q in others):
        return [[best], *_split_by_de(calc, others, values, top=False)]
    return [group]


def compute_standings(
    participants: list[Participant],
    specs: list[TiebreakSpec],
    *,
    round_robin: bool = False,
    edition: str = EDITION_2023,
    final_round: int | None = None,
) -> list[StandingRow]:
    """Rank by points, then the tie-breaks in order (by the C.07 ``edition``); remaining ties
    share the rank. ``final_round``: the tournament's number of rounds, when known (FB treats the
    last round listed as the final one otherwise)."""
    calc = _Calculator(participants, round_robin, edition, final_round)
    values: dict[int, list[float]] = {p.id: [] for p in participants}
    points = calc.points
    groups: list[list[Participant]] = [sorted(participants, key=lambda p: (-points[p.id], p.id))]
    groups = [g for grp in groups for g in _split(grp, lambda p: points[p.id])]
    for spec in specs:
        if spec.code == "DE":
            de_values: dict[int, float] = {}
            groups = [part for grp in groups for part in _split_by_de(calc, grp, de_values)]
            for p in participants:
                values[p.id].append(de_values.get(p.id, 0.0))
            continue
        for p in participants:
            values[p.id].append(calc.value(p, spec))
        index = len(values[participants[0].id]) - 1 if participants else 0
        sign = -1 if spec.code in _LOWER_FIRST else 1
        groups = [g for grp in groups for g in _split(grp, lambda p, i=index, s=sign: s * values[p.id][i])]
    rows, position = [], 1
    for grp in groups:
        for p in sorted(grp, key=lambda p: p.id):
            rows.append(StandingRow(position, p.id, points[p.id], values[p.id]))
        position += len(grp)
    return rows


def _split(group: list[Participant], key) -> list[list[Participant]]:
    """Split a tied group into subgroups by ``key``, best (highest) first."""
    buckets: dict[float, list[Participant]] = {}
    for p in group:
        buckets.setdefault(key(p), []).append(p)
    return [buckets[k] for k in sorted(buckets, reverse=True)]
