"""Re-pair every round of the real TRF files from the preceding results with the Dutch engine.

The engine is py4swiss (see clubrating/tournaments/pairing/swiss.py). Each round's pairing must be
legal (no rematch, every present player once, PAB only to a player without PAB/forfeit win, colour
difference within ±2 and no colour three times in a row except topscorers in the last round), and
the number of boards equal to the actually played pairing is pinned to the measured figures.
"""


import pytest

from clubrating.interchange.formats.trf import read_trf
from clubrating.tournaments.pairing.history import (
    FORFEIT_LOSS,
    FORFEIT_WIN,
    PAB,
    PLAYED,
    RoundRecord,
    entrants_for_round,
)
from clubrating.tournaments.pairing.legality import Pairing, pairing_violations
from clubrating.tournaments.pairing.swiss import SwissPairingError, pair_swiss
from clubrating.tournaments.pairing.trf_history import TrfRounds
from tests.paths import TRF_DIR

# Per round: (boards actually played incl. the PAB, same pairs ignoring colours, same pairs with colours).
MEASURED = {
    "gros-2010-r4.trf": [(26, 1, 1), (25, 13, 13), (21, 13, 13), (24, 11, 11)],
    "karl-mala-2005.trf": [
        (141, 79, 79), (141, 109, 109), (141, 87, 87), (141, 121, 119), (140, 140, 139),
        (139, 121, 120), (138, 136, 135),
    ],
    # Round 1 of the file follows neither numbering (player 1 is absent); from round 2 on the initial
    # colour alternating over the players who take part gives every board as played.
    "san-viator-2018.trf": [(57, 57, 21), (60, 60, 60), (65, 65, 65), (61, 61, 61), (56, 56, 56),
                            (61, 61, 61), (56, 56, 56)],
}
# gros-2010 carries XXA (Baku acceleration) lines, but its rounds were evidently paired without:
# ignoring them reproduces rounds 1 and 3 exactly.
GROS_WITHOUT_ACCELERATION = [(26, 26, 26), (25, 16, 16), (21, 21, 21), (24, 14, 14)]


def test_round_one_of_a_real_file_is_the_played_pairing():
    # gros-2010, paired without its XXA lines: player 28 sat round 1 out, 51 others play, the
    # lowest (52) gets the PAB; the engine reproduces every board, colours included.
    rounds = TrfRounds.from_trf(read_trf(TRF_DIR / "gros-2010-r4.trf"))
    absent = {pid: rounds.history[pid][0].points for pid in rounds.absent(1)}
    pairs = pair_swiss(rounds.history, rounds.ratings, round_number=1, total_rounds=rounds.total_rounds,
                       absent=absent, initial_colour=rounds.initial_colour())
    assert absent == {28: 0.0}
    assert pairs[:3] == [Pairing(1, 1, 26), Pairing(2, 27, 2), Pairing(3, 3, 29)]
    assert pairs[-1] == Pairing(26, 52, None)
    assert set(pairs) == set(rounds.actual(1))
    assert pairing_violations(rounds.entrants(1), pairs, round_number=1, total_rounds=9) == []


def _play(history, pairs, ratings):
    """Feed a round back as history: the higher rated player wins, the PAB scores 1."""
    for pair in pairs:
        if pair.black is None:
            history[pair.white].append(RoundRecord(PAB, 1.0))
            continue
        white_wins = ratings[pair.white] > ratings[pair.black]
        history[pair.white].append(RoundRecord(PLAYED, 1.0 if white_wins else 0.0, pair.black, "w"))
        history[pair.black].append(RoundRecord(PLAYED, 0.0 if white_wins else 1.0, pair.white, "b"))


def test_a_whole_swiss_keeps_the_absolute_criteria():
    # Eleven players, five rounds, each round paired from the engine's own earlier rounds.
    ratings = {pid: 2200 - 37 * pid for pid in range(1, 12)}
    history = {pid: [] for pid in ratings}
    met, byes = set(), []
    for number in range(1, 6):
        pairs = pair_swiss(history, ratings, round_number=number, total_rounds=5)
        seated = [p for pair in pairs for p in (pair.white, pair.black) if p is not None]
        assert sorted(seated) == sorted(ratings)  # everybody once
        games = {frozenset((pair.white, pair.black)) for pair in pairs if pair.black is not None}
        assert not games & met  # no rematch
        met |= games
        byes += [pair.white for pair in pairs if pair.black is None]
        _play(history, pairs, ratings)
    assert len(byes) == 5 and len(set(byes)) == 5  # the PAB never twice to the same player
    for records in history.values():
        colours = "".join(r.colour for r in records if r.colour)
        assert abs(colours.count("w") - colours.count("b")) <= 2
        assert "www" not in colours[:-1] and "bbb" not in colours[:-1]  # only the last round may


def replay_round(rounds: TrfRounds, number: int) -> tuple[int, int, int]:
    """Pair round ``number`` from the file's own earlier rounds; check it is legal; compare it."""
    absent = {pid: rounds.history[pid][number - 1].points for pid in rounds.absent(number)}
    pairs = pair_swiss(
        rounds.history, rounds.ratings, round_number=number, total_rounds=rounds.total_rounds,
        absent=absent, initial_colour=rounds.initial_colour(), acceleration=rounds.acceleration,
    )
    entrants = rounds.entrants(number)
    assert pairing_violations(entrants, pairs, round_number=number,
                              total_rounds=rounds.total_rounds) == []
    actual = rounds.actual(number)
    same_pairs = {frozenset((p.white, p.black)) for p in pairs} & {
        frozenset((p.white, p.black)) for p in actual}
    same_colours = {(p.white, p.black) for p in pairs} & {(p.white, p.black) for p in actual}
    return len(actual), len(same_pairs), len(same_colours)


def replay(rounds: TrfRounds) -> list[tuple[int, int, int]]:
    return [replay_round(rounds, number) for number in range(1, rounds.played_rounds + 1)]


# One test per round: each round is paired from the file's actual earlier rounds, so the rounds are
# independent, and the largest file's rounds (281 players, seconds each) spread over the workers.
@pytest.mark.slow
@pytest.mark.parametrize("name,number", [(name, number) for name in sorted(MEASURED)
                                         for number in range(1, len(MEASURED[name]) + 1)])
def test_real_files_repaired_legally(name, number):
    rounds = TrfRounds.from_trf(read_trf(TRF_DIR / name))
    assert rounds.played_rounds == len(MEASURED[name])
    assert replay_round(rounds, number) == MEASURED[name][number - 1]


def test_gros_without_acceleration():
    rounds = TrfRounds.from_trf(read_trf(TRF_DIR / "gros-2010-r4.trf"))
    rounds.acceleration = {}
    assert replay(rounds) == GROS_WITHOUT_ACCELERATION


def test_gros_round_five_pairs_around_the_requested_byes():
    # Round 5 of gros-2010 is not played yet; only the requested byes (H/Z) are entered.
    trf = read_trf(TRF_DIR / "gros-2010-r4.trf")
    rounds = TrfRounds.from_trf(trf)
    absent = {p.start_rank: p.results[4].points for p in trf.players if len(p.results) == 5}
    history = {pid: recs[:4] for pid, recs in rounds.history.items()}
    pairs = pair_swiss(history, rounds.ratings, round_number=5, total_rounds=9, absent=absent)
    seated = sorted(p for pair in pairs for p in (pair.white, pair.black) if p)
    assert absent == {22: 0.0, 28: 0.0, 43: 0.5}
    assert seated == sorted(set(history) - set(absent))
    present = [e for e in entrants_for_round(history, rounds.ratings, 5) if e.id not in absent]
    assert pairing_violations(present, pairs, round_number=5, total_rounds=9) == []


def test_small_tournament_round_one_and_bye():
    history = {pid: [] for pid in range(1, 6)}
    pairs = pair_swiss(history, {pid: 2000 - pid for pid in history}, round_number=1, total_rounds=3)
    # Dutch round 1: top half against bottom half, the lowest player gets the PAB.
    assert pairs == [Pairing(1, 1, 3), Pairing(2, 4, 2), Pairing(3, 5, None)]


def test_unpairable_round_raises():
    history = {1: [RoundRecord(PLAYED, 1.0, 2, "w")], 2: [RoundRecord(PLAYED, 0.0, 1, "b")]}
    with pytest.raises(SwissPairingError):
        pair_swiss(history, {1: 2000, 2: 1900}, round_number=2, total_rounds=2)


def _history_with_round_two(kind_1: str, kind_2: str, colour_1: str | None, colour_2: str | None):
    """Six players after two rounds; in round 2 players 1 and 2 met (played or a forfeit)."""
    return {
        1: [RoundRecord(PLAYED, 1.0, 4, "w"), RoundRecord(kind_1, 1.0, 2, colour_1)],
        2: [RoundRecord(PLAYED, 1.0, 3, "w"), RoundRecord(kind_2, 0.0, 1, colour_2)],
        3: [RoundRecord(PLAYED, 0.0, 2, "b"), RoundRecord(PLAYED, 1.0, 4, "w")],
        4: [RoundRecord(PLAYED, 0.0, 1, "b"), RoundRecord(PLAYED, 0.0, 3, "b")],
        5: [RoundRecord(PLAYED, 0.5, 6, "w"), RoundRecord(PLAYED, 0.5, 6, "b")],
        6: [RoundRecord(PLAYED, 0.5, 5, "b"), RoundRecord(PLAYED, 0.5, 5, "w")],
    }


def test_colour_history_ignores_unplayed_games():
    # FIDE C.04.1 / C.04.3 A.6: colour differences and preferences count played games only, so
    # a forfeit's colours (as paired, reversed, or none as in old files) change nothing.
    ratings = {pid: 2100 - 10 * pid for pid in range(1, 7)}
    forfeits = [_history_with_round_two(FORFEIT_WIN, FORFEIT_LOSS, c1, c2)
                for c1, c2 in (("w", "b"), ("b", "w"), (None, None))]
    pairings = [pair_swiss(h, ratings, round_number=3, total_rounds=4) for h in forfeits]
    assert pairings == [[Pairing(1, 3, 1), Pairing(2, 5, 2), Pairing(3, 4, 6)]] * 3
    assert [[e.colours for e in entrants_for_round(h, ratings, 3)[:2]] for h in forfeits] == [
        [("w", "-"), ("w", "-")]] * 3
    # Had the same game been played, its colours would count: the pairings differ.
    played_white = _history_with_round_two(PLAYED, PLAYED, "w", "b")
    played_black = _history_with_round_two(PLAYED, PLAYED, "b", "w")
    assert pair_swiss(played_white, ratings, round_number=3, total_rounds=4) == [
        Pairing(1, 3, 1), Pairing(2, 2, 6), Pairing(3, 4, 5)]
    assert pair_swiss(played_black, ratings, round_number=3, total_rounds=4) == [
        Pairing(1, 1, 3), Pairing(2, 5, 2), Pairing(3, 4, 6)]
