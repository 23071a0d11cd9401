"""Berger tables against FIDE Handbook C.05 Annex 1, and their structural properties."""

from collections import Counter
from itertools import combinations

import pytest

from clubrating.tournaments.pairing.berger import berger_round, berger_schedule, rounds_count


def table(players: int, **kwargs) -> list[str]:
    return [
        " ".join(f"{g.white}-{g.black}" if g.black else f"{g.white}-bye" for g in rnd)
        for rnd in berger_schedule(players, **kwargs)
    ]


# Rows copied from FIDE's published Berger tables (white player first, board 1 first).
FIDE_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
FIDE_6 = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
FIDE_8 = [
    "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1",
]
FIDE_10 = [
    "1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
    "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
    "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1",
]
FIDE_12_SOME = {
    1: "1-12 2-11 3-10 4-9 5-8 6-7",
    2: "12-7 8-6 9-5 10-4 11-3 1-2",
    11: "6-12 7-5 8-4 9-3 10-2 11-1",
}


@pytest.mark.parametrize("players, expected", [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8), (10, FIDE_10)])
def test_tables_match_fide(players, expected):
    assert table(players) == expected


def test_twelve_players_rows_match_fide():
    rows = table(12)
    assert {n: rows[n - 1] for n in FIDE_12_SOME} == FIDE_12_SOME


def test_odd_number_uses_next_even_table_with_a_bye():
    # 5 players: FIDE's table for 6, player 6 being the bye.
    assert table(5) == ["1-bye 2-5 3-4", "4-bye 5-3 1-2", "2-bye 3-1 4-5", "5-bye 1-4 2-3", "3-bye 4-2 5-1"]


@pytest.mark.parametrize("players", range(4, 17))
def test_structure(players):
    schedule = berger_schedule(players)
    even = players + players % 2
    assert len(schedule) == rounds_count(players) == even - 1
    met = Counter()
    colours: dict[int, list[str]] = {p: [] for p in range(1, players + 1)}
    for rnd in schedule:
        seated = [p for g in rnd for p in (g.white, g.black) if p is not None]
        assert sorted(seated) == list(range(1, players + 1))  # everybody exactly once per round
        assert [g.board for g in rnd] == list(range(1, even // 2 + 1))
        assert sum(1 for g in rnd if g.black is None) == players % 2
        for g in rnd:
            if g.black is not None:
                met[frozenset((g.white, g.black))] += 1
                colours[g.white].append("w")
                colours[g.black].append("b")
    assert set(met) == {frozenset(p) for p in combinations(range(1, players + 1), 2)}
    assert set(met.values()) == {1}
    for seq in colours.values():
        assert abs(seq.count("w") - seq.count("b")) <= 1
        assert "www" not in "".join(seq) and "bbb" not in "".join(seq)


@pytest.mark.parametrize("players", range(4, 17))
def test_double_round_robin(players):
    schedule = berger_schedule(players, double=True)
    half = len(schedule) // 2
    assert len(schedule) == rounds_count(players, double=True) == 2 * (players + players % 2 - 1)
    pairs = Counter()
    colours: dict[int, str] = {p: "" for p in range(1, players + 1)}
    for rnd in schedule:
        for g in rnd:
            if g.black is not None:
                pairs[(g.white, g.black)] += 1
                colours[g.white] += "w"
                colours[g.black] += "b"
    # Every pair meets twice, once with each colour.
    assert all(pairs[(b, a)] == 1 for (a, b) in pairs) and set(pairs.values()) == {1}
    # The second cycle repeats the first (with its last two rounds swapped) with colours reversed.
    first, second = schedule[:half], schedule[half:]
    for r1, r2 in zip(first, second):
        assert [(g.white, g.black) for g in r1 if g.black] == [(g.black, g.white) for g in r2 if g.black]
    # The swap avoids a third colour in a row at the turn of the cycles, except with only 4 players
    # (3 rounds per cycle), where players 2 and 4 cannot avoid it.
    streaks = sorted(p for p, seq in colours.items() if "www" in seq or "bbb" in seq)
    assert streaks == ([2, 4] if players == 4 else [])


def test_round_out_of_range():
    with pytest.raises(ValueError):
        berger_round(6, 6)
    with pytest.raises(ValueError):
        berger_round(1, 1)
