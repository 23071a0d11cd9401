"""Baku-accelerated test vectors paired by the endorsed engine, round by round.

    .venv/bin/python benchmarks/baku_vectors.py --bbp PATH/bbpPairings.exe [--seed 300000] [--count 12]
        [--out tests/data/pairing]

bbpPairings' own generator does not accelerate by FIDE's current rule, so each tournament is
played out here: random players (sizes 12 to 150), then for every round the file as it stands
(earlier rounds, the round's byes known in advance, the Baku virtual points of FIDE Handbook
C.04.5.1 as TRF-2026 ``250`` lines, ``192 FIDE_DUTCH_2025_BAKU``) is paired by
``bbpPairings --dutch FILE -p`` (a program you built yourself; nothing of it is part of this
repository), and random results are entered: draws, forfeits, half-point and zero-point byes,
retirements, white or black as the initial colour. The finished files are written as
``bbp-baku-<players>p-<rounds>r-s<seed>.trf``; ``tests/interchange/test_pair_trf_command.py``
re-pairs every round and requires the program's pairing.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SIZES = (12, 16, 21, 30, 40, 51, 64, 80, 101, 150)


def _result(rnd: random.Random, white_rating: int, black_rating: int, draws: float, forfeits: float):
    """Codes of White and Black: a forfeit, a draw, or a win by the Elo expectation."""
    if rnd.random() < forfeits:
        return ("+", "-") if rnd.random() < 0.5 else ("-", "+")
    if rnd.random() < draws:
        return ("=", "=")
    expected = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
    return ("1", "0") if rnd.random() < expected else ("0", "1")


def tournament(bbp: str, seed: int, players: int, rounds: int):
    from clubrating.interchange.formats.trf import TrfGame, TrfPlayer, TrfTournament, write_trf
    from clubrating.interchange.formats.trf.acceleration import acceleration_lines
    from clubrating.tournaments.pairing.baku import baku_acceleration, baku_group_a_size

    rnd = random.Random(seed)
    ratings = sorted((rnd.randint(1000, 2700) for _ in range(players)), reverse=True)
    draws, forfeits = rnd.choice((0.1, 0.3, 0.5)), rnd.choice((0.0, 0.02, 0.08))
    half_byes, retire = rnd.choice((0.0, 0.02, 0.06)), rnd.choice((0.0, 0.01, 0.03))
    colour = rnd.choice(("white1", "black1"))
    trf = TrfTournament(name=f"Baku test {seed}", kind="Individual: Swiss-System")
    trf.players = [
        TrfPlayer(start_rank=i + 1, sex="", title="", name=f"Test{i + 1:04d}, Player{i + 1:04d}",
                  rating=rating, federation="", fide_id=None, birth_year=None, birth_date=None,
                  points=0.0, rank=None)
        for i, rating in enumerate(ratings)
    ]
    accelerations = baku_acceleration(group_a=range(1, baku_group_a_size(players) + 1), rounds=rounds)
    trf.extra_lines = [f"XXR {rounds}", f"XXC {colour}", "192 FIDE_DUTCH_2025_BAKU",
                       *acceleration_lines(accelerations)]
    retired: set[int] = set()
    points = {p.start_rank: 0.0 for p in trf.players}
    for number in range(1, rounds + 1):
        for player in trf.players:
            pid = player.start_rank
            if pid in retired:
                player.results.append(TrfGame(number, None, "-", "Z"))
            elif number < rounds and rnd.random() < half_byes:
                player.results.append(TrfGame(number, None, "-", "H"))
                points[pid] += 0.5
            elif number > 1 and rnd.random() < retire:
                retired.add(pid)
                player.results.append(TrfGame(number, None, "-", "Z"))
        for player in trf.players:
            player.points = points[player.start_rank]
        with tempfile.TemporaryDirectory() as work:
            source, target = Path(work) / "in.trf", Path(work) / "out.txt"
            source.write_text(write_trf(trf, newline="\r"))
            done = subprocess.run([bbp, "--dutch", str(source), "-p", str(target)],
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                return None
            lines = target.read_text().split()
        pairs = [(int(lines[i]), int(lines[i + 1])) for i in range(1, len(lines) - 1, 2)]
        by_rank = {p.start_rank: p for p in trf.players}
        for white, black in pairs:
            if black == 0:
                by_rank[white].results.append(TrfGame(number, None, "-", "U"))
                points[white] += 1.0
                continue
            codes = _result(rnd, by_rank[white].rating, by_rank[black].rating, draws, forfeits)
            by_rank[white].results.append(TrfGame(number, black, "w", codes[0]))
            by_rank[black].results.append(TrfGame(number, white, "b", codes[1]))
            for pid, code in ((white, codes[0]), (black, codes[1])):
                points[pid] += {"1": 1.0, "+": 1.0, "=": 0.5}.get(code, 0.0)
    for player in trf.players:
        player.points = points[player.start_rank]
    return write_trf(trf, newline="\r")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bbp", required=True, help="path of a bbpPairings executable")
    parser.add_argument("--seed", type=int, default=300000)
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--out", default="tests/data/pairing")
    args = parser.parse_args()
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(args.seed, args.seed + args.count):
        choice = random.Random(seed)
        players = SIZES[(seed - args.seed) % len(SIZES)]
        rounds = choice.choice((5, 7, 9, 11)) if players > 12 else choice.choice((5, 7))
        text = tournament(args.bbp, seed, players, rounds)
        if text is None:
            print(f"seed {seed}: not paired", flush=True)
            continue
        path = out / f"bbp-baku-{players:03d}p-{rounds:02d}r-s{seed}.trf"
        path.write_text(text)
        print(path, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
