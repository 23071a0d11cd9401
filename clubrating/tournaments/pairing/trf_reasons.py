"""Why a published round differs from the pairing the rules give: the criterion, as an arbiter names it.

C.04.3 FIDE (Dutch) System orders its criteria: the absolute ones (C.1 no second meeting, C.2 no
second pairing-allocated bye and none for a player who already scored a win without playing, C.3 no
game between non-topscorers with the same absolute colour preference), then the quality criteria
(downfloaters and the scores they carry, the PAB assignee, colours, repeated floats), then the colour
allocation rules (E.1–E.5) for the colours of a pair. The first criterion the published pairing
breaks, or else the first on which the two pairings differ, is the reason given.

The quality criteria are compared over the whole round, not bracket by bracket as the engine decides
them: the totals say what an arbiter sees, while the Dutch system weighs a higher bracket first. When
the totals are all equal, the rules chose the pairing that comes first in the order of transpositions
and exchanges. The players' state before the round (scores, colour preferences, floats, opponents) is
read with the engine's own reader for the edition, so the reasons follow the same rules as the pairing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from py4swiss.engines.common import ColorPreferenceSide, ColorPreferenceStrength, Float
from py4swiss.engines.dutch.criteria import ABSOLUTE_CRITERIA as ABSOLUTE_2017
from py4swiss.engines.dutch.criteria import COLOR_CRITERIA as COLOUR_2017
from py4swiss.engines.dutch.player import get_player_infos_from_trf as players_2017
from py4swiss.trf import ParsedTrf

from clubrating.interchange.formats.trf import TrfTournament
from clubrating.tournaments.pairing.dutch2017 import pairing_numbers
from clubrating.tournaments.pairing.dutch2026.criteria import ABSOLUTE_CRITERIA as ABSOLUTE_2026
from clubrating.tournaments.pairing.dutch2026.criteria import COLOR_CRITERIA as COLOUR_2026
from clubrating.tournaments.pairing.dutch2026.player import get_player_infos_from_trf as players_2026

Pair = tuple[int, int]  # (white, black); black 0 for the pairing-allocated bye

# Reason codes, in the order the rules apply them.
INCOMPLETE = "incomplete"  # a player paired twice, not to be paired, or left out
MET_BEFORE = "met_before"  # C.1
PAB_INELIGIBLE = "pab_ineligible"  # C.2 (C.04.1 of 2026 for the win without playing)
ABSOLUTE_COLOUR = "absolute_colour"  # C.3
PAB_SCORE = "pab_score"  # C.04.1 of 2026: the PAB to the lowest score that completes the round
FLOATERS = "floaters"  # C.5-C.7: downfloaters, the score differences they carry
PAB_UNPLAYED = "pab_unplayed"  # 2026: the fewest unplayed games of the PAB assignee
TOPSCORER_DIFFERENCE = "topscorer_difference"  # C.8
TOPSCORER_THREE = "topscorer_three"  # C.9
COLOUR_PREFERENCE = "colour_preference"  # C.10
STRONG_PREFERENCE = "strong_preference"  # C.11
DOWNFLOAT_AGAIN = "downfloat_again"  # C.12
UPFLOAT_AGAIN = "upfloat_again"  # C.13
DOWNFLOAT_TWO_BEFORE = "downfloat_two_before"  # C.14
UPFLOAT_TWO_BEFORE = "upfloat_two_before"  # C.15
DOWNFLOAT_AGAIN_SCORES = "downfloat_again_scores"  # C.16
UPFLOAT_AGAIN_SCORES = "upfloat_again_scores"  # C.17
DOWNFLOAT_TWO_BEFORE_SCORES = "downfloat_two_before_scores"  # C.18
UPFLOAT_TWO_BEFORE_SCORES = "upfloat_two_before_scores"  # C.19
COLOUR_ALLOCATION = "colour_allocation"  # E.1-E.5
ORDER = "order"  # equal on every criterion: the order of transpositions and exchanges


@dataclass(frozen=True)
class Reason:
    """The first criterion the file's pairing breaks or differs on.

    ``players`` are the starting numbers concerned (a pair that met before, the PAB assignee, the
    player who should have had White); ``rounds`` the earlier rounds that matter (when they met);
    ``file_value`` and ``rules_value`` the two pairings' totals on a quality criterion, each a
    tuple (a count, or scores times ten in descending order); ``rule`` the colour rule (1-5)."""

    code: str
    players: tuple[int, ...] = ()
    rounds: tuple[int, ...] = ()
    file_value: tuple[int, ...] = field(default=())
    rules_value: tuple[int, ...] = field(default=())
    rule: int = 0


def _players(parsed: ParsedTrf, edition: str):
    """The players of the round with their state before it, read as the edition's engine reads them
    (the old edition with the pairing numbers of ``dutch2017``); its C.3 and colour rules."""
    if edition == "dutch_2017":
        players = {p.id: p for p in players_2017(parsed)}
        if not parsed.x_section.configuration.by_rank:
            numbers = pairing_numbers(parsed)
            for player in players.values():
                player.number = numbers[player.id]
        c3, colour_rules = ABSOLUTE_2017[2], COLOUR_2017
    else:
        players = {p.id: p for p in players_2026(parsed)}
        c3, colour_rules = ABSOLUTE_2026[2], COLOUR_2026
    return players, c3, colour_rules, parsed.x_section.configuration.first_round_color


def _higher(a, b):
    """The higher-ranked of two players (score with acceleration, then pairing number)."""
    return a if (a.points_with_acceleration, -a.number) >= (b.points_with_acceleration, -b.number) else b


def _white_by_rules(p1, p2, colour_rules, initial_white: bool) -> tuple[int, int]:
    """The starting number the colour allocation rules give White, and the rule (1-5) that decides."""
    first = _higher(p1, p2)
    second = p2 if first is p1 else p1
    for index, rule in enumerate(colour_rules, start=1):
        side = rule.evaluate(first, second)
        if side != ColorPreferenceSide.NONE:
            if index == len(colour_rules) and not initial_white:
                side = side.get_opposite()
            return (first.id if side == ColorPreferenceSide.WHITE else second.id), index
    raise AssertionError("E.5 always decides")  # pragma: no cover


def _unplayed(trf: TrfTournament, player: int, round_number: int) -> int:
    for entry in trf.players:
        if entry.start_rank == player:
            games = entry.results[: round_number - 1]
            return round_number - 1 - sum(1 for g in games if g.opponent is not None and g.result in "10=WDL"
                                          and g.result)
    return 0


def _met_in(trf: TrfTournament, a: int, b: int) -> int:
    for entry in trf.players:
        if entry.start_rank == a:
            for game in entry.results:
                if game.opponent == b:
                    return game.round
    return 0


def _totals(pairs: list[Pair], players, unplayed, white_of) -> list[tuple[str, tuple[int, ...]]]:
    """The pairing's totals on each quality criterion, in the rules' order; smaller is better. The
    colour criteria count the colours the allocation rules give each pair (``white_of``): they judge
    who is paired with whom; the colours of a pair are the allocation rules' own question."""
    down_now, up_now, colour_of = set(), {}, {}
    differences, pab = [], None
    for white, black in pairs:
        if black == 0:
            pab = players[white]
            down_now.add(white)
            continue
        w, b = players[white], players[black]
        given = white_of(w, b)
        colour_of[white], colour_of[black] = given == white, given == black
        if w.points_with_acceleration != b.points_with_acceleration:
            high = _higher(w, b)
            low = b if high is w else w
            differences.append(high.points_with_acceleration - low.points_with_acceleration)
            down_now.add(high.id)
            up_now[low.id] = high.points_with_acceleration
    pab_score = (pab.points_with_acceleration,) if pab else ()
    c8 = c9 = c10 = c11 = 0
    for pid, white in colour_of.items():
        p = players[pid]
        opponent = next(players[b if a == pid else a] for a, b in pairs if pid in (a, b))
        watched = p.top_scorer or opponent.top_scorer
        difference = p.color_difference + (1 if white else -1)
        c8 += watched and abs(difference) > 2
        c9 += watched and len(p.colors) >= 2 and p.colors[-1] == p.colors[-2] == white
        wanted = p.color_preference.side
        missed = wanted != ColorPreferenceSide.NONE and (wanted == ColorPreferenceSide.WHITE) != white
        c10 += missed
        c11 += missed and p.color_preference.strength in (ColorPreferenceStrength.STRONG,
                                                           ColorPreferenceStrength.ABSOLUTE)

    def again(attr: str, now, direction) -> list[int]:
        return [pid for pid in now if getattr(players[pid], attr) == direction]

    down_1, up_1 = again("float_1", down_now, Float.DOWN), again("float_1", up_now, Float.UP)
    down_2, up_2 = again("float_2", down_now, Float.DOWN), again("float_2", up_now, Float.UP)

    def scores(ids, of=None) -> tuple[int, ...]:
        values = (of[i] if of else players[i].points_with_acceleration for i in ids)
        return tuple(sorted(values, reverse=True))

    return [
        (PAB_SCORE, pab_score),
        (FLOATERS, (len(differences), *sorted(differences, reverse=True))),
        (PAB_UNPLAYED, (unplayed(pab.id),) if pab else ()),
        (TOPSCORER_DIFFERENCE, (c8,)),
        (TOPSCORER_THREE, (c9,)),
        (COLOUR_PREFERENCE, (c10,)),
        (STRONG_PREFERENCE, (c11,)),
        (DOWNFLOAT_AGAIN, (len(down_1),)),
        (UPFLOAT_AGAIN, (len(up_1),)),
        (DOWNFLOAT_TWO_BEFORE, (len(down_2),)),
        (UPFLOAT_TWO_BEFORE, (len(up_2),)),
        (DOWNFLOAT_AGAIN_SCORES, scores(down_1)),
        (UPFLOAT_AGAIN_SCORES, scores(up_1, up_now)),
        (DOWNFLOAT_TWO_BEFORE_SCORES, scores(down_2)),
        (UPFLOAT_TWO_BEFORE_SCORES, scores(up_2, up_now)),
    ]


def round_reason(trf: TrfTournament, round_number: int, played: list[Pair], expected: list[Pair],
                 *, edition: str, engine_input: ParsedTrf) -> Reason:
    """Why ``played`` (the file's pairing of the round) is not ``expected`` (the rules' pairing);
    ``engine_input`` is what the engine paired the round from."""
    players, c3, colour_rules, initial_white = _players(engine_input, edition)
    seen: list[int] = [pid for pair in played for pid in pair if pid]
    wrong = sorted({pid for pid in seen if pid not in players or seen.count(pid) > 1}
                   | (set(players) - set(seen)))
    if wrong:
        return Reason(INCOMPLETE, players=tuple(wrong))
    for white, black in played:
        if black and white in players[black].opponents:
            return Reason(MET_BEFORE, players=(white, black), rounds=(_met_in(trf, white, black),))
    for white, black in played:
        if not black and players[white].bye_received:
            return Reason(PAB_INELIGIBLE, players=(white,))
    for white, black in played:
        if black and not c3.evaluate(players[white], players[black]):
            return Reason(ABSOLUTE_COLOUR, players=(white, black))

    def unplayed(pid: int) -> int:
        return _unplayed(trf, pid, round_number)

    def white_of(a, b) -> int:
        return _white_by_rules(a, b, colour_rules, initial_white)[0]

    # The PAB to the lowest score and to the fewest unplayed games are rules of 2026.
    skipped = {PAB_SCORE, PAB_UNPLAYED} if edition == "dutch_2017" else set()
    for (code, mine), (_code, theirs) in zip(_totals(played, players, unplayed, white_of),
                                            _totals(expected, players, unplayed, white_of), strict=True):
        if mine != theirs and code not in skipped:
            return Reason(code, file_value=mine, rules_value=theirs)
    if {frozenset(p) for p in played} == {frozenset(p) for p in expected}:
        for white, black in played:
            if not black:
                continue
            should, rule = _white_by_rules(players[white], players[black], colour_rules, initial_white)
            if should != white:
                return Reason(COLOUR_ALLOCATION, players=(should, white if should == black else black),
                              rule=rule)
    return Reason(ORDER)
