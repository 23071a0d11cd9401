"""Benchmark of the rating engine: one synthetic period of 20,000 players and 200,000 games.

Run: .venv/bin/python benchmarks/engine_bench.py [--rules NAME] [--players N] [--games N] [--repeat N]

Prints, each as the median of --repeat runs, in wall time and in CPU time of this process
(``time.process_time``: on a shared machine the wall time also counts other processes' turns),
with the load average before the runs:

* reference: the readable evaluation (pure Python, one game at a time), from ``GameIn`` tuples;
* vectorised, GameIn: the NumPy evaluation from ``GameIn`` tuples (the calculators and the
  TRF commands hand over games so), reading them into columns included;
* vectorised, service: what the ratings service's ``evaluate`` does with a period: from the
  stored side records as ``load_records`` returns them (two per game: id, game, member,
  opponent, white, score, solo, stored values) and the published state to the result,
  ``games_from_sides`` and the players' inputs included;
* + every player read: the service path, then every player's result read once (what storing
  the live values or closing a period does; the engine builds a player's result when it is
  first read).

10 % of the players are newcomers; they meet rated players and each other, so the newcomer
fixed-point iteration is part of the measured time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.rules import GameIn, PlayerIn, evaluate_period, get_rules  # noqa: E402
from ratings.rules.columns import games_from_sides  # noqa: E402
from ratings.rules.period import evaluate_period_reference  # noqa: E402
from ratings.rules.vectorised import applies  # noqa: E402

# Positions of game, member, opponent, white, score and solo in a stored side record
# (``ratings.services.evaluation.Rec``).
SIDE_FIELDS = (1, 2, 3, 4, 5, 6)
UNCALCULATED = (False, None, None, None, None, None, None)


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


def side_records(games: list[GameIn]) -> list[tuple]:
    """The games as the service loads them: a record per side, both sides of a game in a row."""
    records = []
    for g in games:
        records.append((len(records), g.key, g.white, g.black, True, g.score, False, UNCALCULATED))
        records.append((len(records), g.key, g.black, g.white, False, 1.0 - g.score, False, UNCALCULATED))
    return records


def measure(run, repeat: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``repeat`` runs, and the last result."""
    walls, cpus = [], []
    result = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="oesb-classic")
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5, help="runs per evaluation; the median counts")
    args = parser.parse_args()
    plist, glist = build(args.players, args.games)
    records = side_records(glist)
    rules = get_rules(args.rules)

    # The published state as the service holds it: member -> published values.
    state = {p.key: (p.rating, p.games_count, p.birth_year, p.reached_2400, p.peak_rating) for p in plist}

    def service():
        # ``ratings.services.evaluation.evaluate``: games from the records, players from the state.
        games = games_from_sides(records, SIDE_FIELDS)
        players = [PlayerIn(key, *state[key]) for key in games.player_keys()]
        return evaluate_period(rules, players, games, year=2026)

    def service_read_all():
        result = service()
        for p in plist:
            result.players.get(p.key)
        return result

    evaluations = [("reference", lambda: evaluate_period_reference(rules, plist, glist, year=2026))]
    if applies(rules):
        evaluations += [
            ("vectorised, GameIn", lambda: evaluate_period(rules, plist, glist, year=2026)),
            ("vectorised, service", service),
            ("  + every player read", service_read_all),
        ]
    print(f"rules:   {rules.name}")
    print(f"players: {len(plist)}")
    print(f"games:   {len(glist)} ({len(records)} side records)")
    print(f"load average before the runs: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"median of {args.repeat} runs          wall       CPU")
    for label, run in evaluations:
        wall, cpu, result = measure(run, args.repeat)
        published = sum(1 for p in result.players.values() if p.newcomer and p.published)
        print(f"{label + ':':<24} {wall:7.3f} s {cpu:7.3f} s  ({len(glist) / wall:,.0f} games/s); "
              f"newcomers published: {published}, iteration rounds: {result.iterations}, "
              f"pending games: {len(result.pending)}")
    if not applies(rules):
        print("vectorised: not used for this rule set")
    print(f"load average after the runs:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
