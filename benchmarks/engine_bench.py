"""Benchmark of the rating engine: one synthetic period of 20,000 players and 200,000 games.

Run: .venv/bin/python benchmarks/engine_bench.py [--rules NAME] [--players N] [--games N]
Prints the time of the readable reference evaluation (pure Python, one game at a time) and of
the vectorised one (NumPy) that production uses for the oesb and fide rule sets, best of
--repeat runs each. 10 % of the players are newcomers; they meet rated players and each other,
so the newcomer fixed-point iteration is part of the measured time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.rules import GameIn, PlayerIn, get_rules  # noqa: E402
from ratings.rules.period import evaluate_period_reference  # noqa: E402
from ratings.rules.vectorised import applies, evaluate_period_vectorised  # noqa: E402


def build(players: int, games: int, seed: int = 2026) -> tuple[list[PlayerIn], list[GameIn]]:
    rng = random.Random(seed)
    newcomers = players // 10
    plist = [PlayerIn(i, rng.randint(1200, 2600), rng.randint(0, 400)) for i in range(players - newcomers)]
    plist += [PlayerIn(i, None) for i in range(players - newcomers, players)]
    first_new = players - newcomers
    glist = []
    for g in range(games):
        white = rng.randrange(players)
        if white >= first_new and rng.random() < 0.3:
            black = rng.randrange(first_new, players)  # newcomers also meet each other
        else:
            black = rng.randrange(players)
        if black == white:
            black = (white + 1) % players
        glist.append(GameIn(g, white, black, rng.choice((1.0, 0.5, 0.0))))
    return plist, glist


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="oesb-classic")
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per evaluation; the best counts")
    args = parser.parse_args()
    plist, glist = build(args.players, args.games)
    rules = get_rules(args.rules)
    evaluations = [("reference", evaluate_period_reference)]
    if applies(rules):
        evaluations.append(("vectorised", evaluate_period_vectorised))
    print(f"rules:        {rules.name}")
    print(f"players:      {len(plist)}")
    print(f"games:        {len(glist)}")
    for label, evaluate in evaluations:
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = evaluate(rules, plist, glist, year=2026)
            best = min(best, time.perf_counter() - start)
        published = sum(1 for p in result.players.values() if p.newcomer and p.published)
        print(f"{label + ':':<13} {best:.3f} s ({len(glist) / best:,.0f} games/s); newcomers published: "
              f"{published}, iteration rounds: {result.iterations}, pending games: {len(result.pending)}")
    if len(evaluations) == 1:
        print("vectorised:   not used for this rule set")


if __name__ == "__main__":
    main()
