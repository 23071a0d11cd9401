"""Large PGN and TRF files through their upload pages: what the request costs and what the
background job costs.

    [DATABASE_URL=postgres://…] .venv/bin/python benchmarks/import_bench.py [--pgn-bytes 5000000]
        [--players 5000] [--rounds 9]

Builds a PGN file just under the 5 MB upload limit (the games of tests/data with full moves,
between 1,000 players, one tournament of 9 rounds) and a Swiss TRF file of ``--players`` players
and ``--rounds`` rounds, on a throw-away database (SQLite, or a test database next to the one
DATABASE_URL names). Each file is uploaded through its page (the request hands it to a job and
answers) and the preview and import jobs are then run as a worker runs them. Prints the wall
and CPU time of each step with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django():
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    os.environ["CLUBRATING_TASK_BACKEND"] = "database"  # the request only queues the job
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    return connection


def pgn_file(limit: int) -> bytes:
    """Games with full moves, each between two of 1,000 players, up to ``limit`` bytes."""
    import io

    import chess.pgn

    data = ROOT / "tests" / "data"
    games = []
    for name in ("uzchess-cup-2025-6-games.pgn", "womens-world-rapid-2024-3-games.pgn", "club-games.pgn"):
        stream = io.StringIO((data / name).read_text(encoding="utf-8"))
        while (game := chess.pgn.read_game(stream)) is not None:
            exporter = chess.pgn.StringExporter(headers=False, comments=False, variations=False)
            games.append(game.accept(exporter).strip())
    rng = random.Random(1)
    out, size, number = [], 0, 0
    while True:
        number += 1
        rnd, board = divmod(number - 1, 500)
        if board == 0:  # each round pairs the 1,000 players anew
            order = rng.sample(range(1000), 1000)
        white, black = order[2 * board], order[2 * board + 1]
        moves = rng.choice(games)
        result = moves.split()[-1]
        game = (f'[Event "Open 2026"]\n[Site "Wien"]\n[Date "2026.{3 + rnd % 9:02d}.0{1 + rnd % 9}"]\n'
                f'[Round "{rnd + 1}.{board + 1}"]\n[White "Spieler{white:04d}, Anna"]\n'
                f'[Black "Spieler{black:04d}, Bernd"]\n[Result "{result}"]\n\n{moves}\n\n')
        encoded = game.encode()
        if size + len(encoded) > limit:
            return b"".join(out)
        out.append(encoded)
        size += len(encoded)


def trf_file(players: int, rounds: int) -> bytes:
    """A Swiss of ``players`` players (TRF16 player lines), paired at random each round."""
    rng = random.Random(1)
    results = {i: [] for i in range(1, players + 1)}
    for _round in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        for white, black in zip(order[::2], order[1::2], strict=False):
            score = rng.choice(["1", "0", "="])
            other = {"1": "0", "0": "1", "=": "="}[score]
            results[white].append((black, "w", score))
            results[black].append((white, "b", other))
        if players % 2:
            results[order[-1]].append((0, "-", "U"))
    points = {i: sum({"1": 1, "=": 0.5, "0": 0, "U": 1}[r] for _o, _c, r in rs) for i, rs in results.items()}
    ranks = {i: n for n, i in enumerate(sorted(points, key=lambda i: (-points[i], i)), start=1)}
    lines = ["012 Großes Open 2026", "022 Wien", "032 AUT", "042 2026/07/01", "052 2026/07/09",
             f"062 {players}", "092 Individual: Swiss-System", "122 90/40+30",
             "132" + " " * 87 + "".join(f"  26/07/{d:02d}" for d in range(1, rounds + 1))]
    for i in range(1, players + 1):
        name = f"Spieler{i:05d}, Anna"
        line = (f"001 {i:>4} {'m' if i % 3 else 'w'}{'':>3} {name:<33} {1000 + i % 1400:>4} "
                f"AUT {'':>11} {1950 + i % 60}/01/01 {points[i]:>4.1f} {ranks[i]:>4}")
        line += "".join(f"  {opp:>4} {color} {res}" if opp else "  0000 - U"
                        for opp, color, res in results[i])
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pgn-bytes", type=int, default=5_000_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    connection = setup_django()
    import datetime

    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse
    from django_tasks_db.models import DBTaskResult

    from clubrating.clubs.models import Club
    from clubrating.jobs.models import Job
    from clubrating.jobs.tasks import job_run
    from tests.ratings.factories import make_pool

    Club.objects.create(name="Schachklub Donaustadt", short_name="SK Donaustadt", is_home=True)
    user = User.objects.create_user("bench")
    for group in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP):
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    client = Client()
    client.force_login(user)
    pool = make_pool(name="Bench", start=datetime.date(2026, 1, 1))

    def timed(label, run):
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        print(f"{label:<42} {time.perf_counter() - wall:7.1f} s wall {time.process_time() - cpu:7.1f} s CPU"
              f"  (load {load:.1f})", flush=True)
        return result

    def work():
        """The queued job, run as the worker runs it."""
        row = DBTaskResult.objects.order_by("enqueued_at").last()
        job_run.func(*row.args_kwargs["args"], **row.args_kwargs["kwargs"])
        DBTaskResult.objects.all().delete()
        return Job.objects.latest("pk")

    files = {
        "PGN": (reverse("interchange:pgn_import"), pgn_file(args.pgn_bytes), "open.pgn"),
        "TRF": (reverse("interchange:trf_import", args=[pool.pk]), trf_file(args.players, args.rounds),
                "open.trf"),
    }
    print(f"database: {connection.vendor}")
    for kind, (url, raw, name) in files.items():
        print(f"{kind}: {len(raw):,} bytes")
        response = timed(f"{kind} upload (request)", lambda url=url, raw=raw, name=name: client.post(
            url, {"file": SimpleUploadedFile(name, raw)}))
        assert response.status_code == 302, response.content[:500]
        job = timed(f"{kind} preview (job)", work)
        print(f"  {job.state}: {job.message[:150]}")
        response = timed(f"{kind} confirm (request)", lambda url=url: client.post(url, {"confirm": "1"}))
        assert response.status_code == 302
        job = timed(f"{kind} import (job)", work)
        print(f"  {job.state}: {job.message[:150]}")
    connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)


if __name__ == "__main__":
    main()
