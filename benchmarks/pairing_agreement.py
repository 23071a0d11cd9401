"""Agreement of our Dutch pairing with the endorsed engine, as FIDE checks pairing programs.

    .venv/bin/python benchmarks/pairing_agreement.py --bbp PATH/bbpPairings.exe [--count 200] [--seed 0]
        [--out /tmp/pairing-agreement] [--rules 2026]

FIDE's endorsement of pairing programs (C.04.A, Annex 3, "Endorsement of a software program",
A.7) has the candidate re-pair random tournaments produced by an endorsed program and allows at
most 10 tournaments with any discrepancy in 5,000. This script asks bbpPairings (a program you
built yourself; nothing of it is part of this repository) to generate ``--count`` tournaments
(``--dutch -g CONFIG -o FILE -s SEED``, sizes 7 to 150, byes, forfeits and retirements in varying
rates) into ``--out``, re-pairs every round of each through ``trf_pairing.check_trf`` and prints
the number of tournaments with a differing round, the rounds compared and the time taken. The
differing files are listed, so that they can be looked at with ``manage.py pair_trf --check``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SIZES = (7, 8, 9, 10, 11, 12, 15, 16, 20, 24, 30, 31, 40, 50, 64, 80, 101, 150)


def config_for(seed: int) -> str:
    """A tournament's generator configuration, drawn from ``seed`` (reproducible)."""
    rnd = random.Random(seed)
    players = rnd.choice(SIZES) if rnd.random() < 0.85 else rnd.randint(7, 150)
    rounds = min(rnd.randint(5, 11), max(3, players // 2 + 1))
    return (
        f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage={rnd.randint(10, 50)}\n"
        f"ForfeitRate={rnd.choice([3, 5, 10, 20, 50, 1000])}\n"
        f"HalfPointByeRate={rnd.choice([3, 5, 10, 20, 1000])}\n"
        f"RetiredRate={rnd.choice([3, 5, 10, 20, 1000])}\n"
        f"HighestRating={rnd.randint(2000, 2800)}\nLowestRating={rnd.randint(1000, 1900)}\n"
    )


def generate(bbp: str, seed: int, out: Path) -> Path | None:
    """One tournament generated and paired by bbpPairings; None when it found no pairing."""
    config = out / f"config-{seed}.txt"
    config.write_text(config_for(seed))
    target = out / f"dutch-{seed}.trf"
    result = subprocess.run(
        [bbp, "--dutch", "-g", str(config), "-o", str(target), "-s", str(seed)],
        capture_output=True, text=True, check=False,
    )
    config.unlink()
    if result.returncode != 0:
        target.unlink(missing_ok=True)
        return None
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bbp", required=True, help="path of a bbpPairings executable")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--out", default="/tmp/pairing-agreement")
    parser.add_argument("--rules", default="2026", choices=("2017", "2026"))
    parser.add_argument("--every", type=int, default=50, help="print the running figure this often")
    args = parser.parse_args()
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    from clubrating.interchange.formats.trf import read_trf
    from clubrating.tournaments.pairing.trf_pairing import check_trf

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    compared = differing = rounds = rounds_differing = skipped = 0
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.count):
        path = generate(args.bbp, seed, out)
        if path is None:
            skipped += 1
            continue
        checks = check_trf(read_trf(path), edition=f"dutch_{args.rules}")
        bad = [c.round for c in checks if not c.matches]
        compared += 1
        rounds += len(checks)
        rounds_differing += len(bad)
        if bad:
            differing += 1
            print(f"differs: {path} rounds {bad}", flush=True)
        if compared % args.every == 0:
            _report(compared, skipped, differing, rounds, rounds_differing, started)
    _report(compared, skipped, differing, rounds, rounds_differing, started)
    return 0


def _report(compared: int, skipped: int, differing: int, rounds: int, rounds_differing: int,
            started: float) -> None:
    elapsed = time.perf_counter() - started
    share = 100 * (compared - differing) / compared if compared else 0.0
    print(
        f"{compared} tournaments ({skipped} not generated), {differing} with a differing round "
        f"({share:.2f} % identical); {rounds} rounds, {rounds_differing} differing; "
        f"{elapsed:.0f} s ({elapsed / max(compared, 1):.2f} s a tournament); "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
