"""Answer times of the public read API (and the embeds) at 1,000 and 20,000 members.

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/api_bench.py [--sizes 1000,20000] [--runs 5]

Each size gets the database of ``web_bench.py`` (the same seed: one ``oesb-2024`` pool with N
members in 40 clubs and 10×N games, a published period list and a live list with changes; built
once, then reused) plus, if missing, a registered Swiss of 200 players with 7 rounds played, for
the tournament endpoints. Every endpoint is requested through Django's test client at its real
URL with an empty cache (the API keeps no server-side cache: the figure is the work); each figure
is the median of ``--runs`` requests after one warming request: wall time, this process's CPU
time, the time spent waiting for the database's queries, and the number of queries (which must
not grow with the size). The load average is printed beside the figures (the machine may be
shared: compare CPU time and queries there, wall time only on a quiet machine).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_bench import _seed, _setup_django, _size_url  # noqa: E402 - the same databases

SWISS_PLAYERS, SWISS_ROUNDS = 200, 7


def _swiss(rng: random.Random):
    """A Swiss of ``SWISS_PLAYERS`` registered members, ``SWISS_ROUNDS`` rounds with results
    (paired by score groups, as a Swiss is), the last round still running on a few boards."""
    from clubrating.clubs.models import Member
    from clubrating.tournaments.models import Game, Result, Round, Tournament, TournamentPlayer

    tournament = Tournament.objects.filter(name="API bench Swiss").first()
    if tournament is not None:
        return tournament
    tournament = Tournament.objects.create(name="API bench Swiss", kind="swiss", rounds_count=SWISS_ROUNDS,
                                           start_date=datetime.date(2023, 5, 1))
    members = list(Member.objects.order_by("?")[:SWISS_PLAYERS])
    TournamentPlayer.objects.bulk_create([
        TournamentPlayer(tournament=tournament, member=m, start_rank=i + 1, rating=rng.randint(1200, 2300),
                         fide_rating=rng.choice([None, rng.randint(1400, 2400)]))
        for i, m in enumerate(members)
    ])
    points = {m.pk: 0.0 for m in members}
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for number in range(1, SWISS_ROUNDS + 1):
        rnd = Round.objects.create(tournament=tournament, number=number,
                                   date=tournament.start_date + datetime.timedelta(days=number))
        order = sorted(points, key=lambda pk: (-points[pk], rng.random()))
        games = []
        for board in range(len(order) // 2):
            white, black = order[2 * board], order[2 * board + 1]
            last = number == SWISS_ROUNDS and board >= len(order) // 2 - 5
            result = Result.NOT_PLAYED if last else rng.choice(results)
            games.append(Game(round=rnd, board=board + 1, white_id=white, black_id=black, result=result,
                              rated_result=result))
            if result:
                w, b = {"1-0": (1, 0), "1/2": (0.5, 0.5), "0-1": (0, 1)}[result]
                points[white] += w
                points[black] += b
        Game.objects.bulk_create(games)
    return tournament


def _measure(size: int, runs: int) -> dict[str, dict[str, float]]:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    from clubrating.clubs.models import Club, Member
    from ratings.models import PublishedList, RatingPool

    pool = RatingPool.objects.filter(name=f"Bench {size}").first()
    if pool is None:
        t0 = time.perf_counter()
        pool = _seed(size, random.Random(size))
        print(f"# seeded {size} members in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    tournament = _swiss(random.Random(size + 1))
    if connection.vendor == "postgresql":  # fresh tables: the planner needs their statistics
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    plist = PublishedList.objects.filter(pool=pool, superseded=False).order_by("-pk").first()
    member = Member.objects.order_by("pk")[size // 2]
    club = Club.objects.order_by("pk").first()
    v1 = "/api/v1"
    urls = {
        "clubs": f"{v1}/clubs",
        "members": f"{v1}/members",
        "members_last_page": f"{v1}/members?page={(size + 49) // 50}",
        "members_search": f"{v1}/members?q=Spieler12",
        "member": f"{v1}/members/{member.pk}",
        "member_ratings": f"{v1}/members/{member.pk}/ratings",
        "pools": f"{v1}/pools",
        "live": f"{v1}/pools/{pool.pk}/live",
        "live_last_page": f"{v1}/pools/{pool.pk}/live?page={size // 100}",
        "live_club_by_name": f"{v1}/pools/{pool.pk}/live?club={club.name}&sort=name",
        "list": f"{v1}/lists/{plist.pk}",
        "list_sorted_change": f"{v1}/lists/{plist.pk}?sort=-change&page=3",
        "tournaments": f"{v1}/tournaments",
        "tournament": f"{v1}/tournaments/{tournament.pk}",
        "standings": f"{v1}/tournaments/{tournament.pk}/standings",
        "pairings": f"{v1}/tournaments/{tournament.pk}/pairings",
        "round": f"{v1}/tournaments/{tournament.pk}/rounds/{SWISS_ROUNDS}",
        "crosstable": f"{v1}/tournaments/{tournament.pk}/crosstable",
        "snippet_club_top": f"{v1}/clubs/{club.pk}/top.html",
        "embed_standings": f"/embed/tournaments/{tournament.pk}/standings/",
        "openapi": f"{v1}/openapi.json",
    }
    client = Client()
    figures: dict[str, dict[str, float]] = {}
    queries: list[float] = []

    def timed(execute, sql, params, many, context):
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries.append(time.perf_counter() - t0)

    for name, url in urls.items():
        wall, cpu, db, count = [], [], [], 0
        for run in range(runs + 1):
            cache.clear()  # cold, and no rate limit in the way
            queries.clear()
            with connection.execute_wrapper(timed):
                w0, c0 = time.perf_counter(), time.process_time()
                response = client.get(url)
                w1, c1 = time.perf_counter(), time.process_time()
            assert response.status_code == 200, (url, response.status_code, response.content[:200])
            if run:  # the first request warms templates, translations and the connection
                wall.append(w1 - w0)
                cpu.append(c1 - c0)
                db.append(sum(queries))
                count = len(queries)
        figures[name] = {"wall": statistics.median(wall), "cpu": statistics.median(cpu),
                         "db": statistics.median(db), "queries": count}
        print(f"# {size:>6} {name:<20} {figures[name]['wall'] * 1000:7.1f} ms wall "
              f"{figures[name]['cpu'] * 1000:7.1f} ms cpu {figures[name]['db'] * 1000:7.1f} ms in queries "
              f"({count})  load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,20000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON object on standard output")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in a child process
    args = parser.parse_args()
    if args.one:
        _setup_django()
        print(json.dumps(_measure(args.one, args.runs)))
        return
    default = Path(tempfile.gettempdir()) / "clubrating-web.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    sizes = [int(s) for s in args.sizes.split(",") if s]
    results: dict[str, dict[str, dict[str, float]]] = {}
    for size in sizes:  # each in its own process: Django binds to one database per process
        env = {**os.environ, "DATABASE_URL": _size_url(base, size)}
        out = subprocess.run([sys.executable, __file__, "--one", str(size), "--runs", str(args.runs)],
                             env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        results[str(size)] = json.loads(out.strip().splitlines()[-1])
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"load_average": load, "figures": results}))
        return
    names = list(next(iter(results.values())))
    print(f"{'endpoint':<20}" + "".join(f"{s + ' wall':>12}{'cpu':>7}{'db':>7}{'q':>4}" for s in results)
          + "   (ms, median; q: queries)")
    for name in names:
        cells = (f"{results[s][name]['wall'] * 1000:12.1f}{results[s][name]['cpu'] * 1000:7.1f}"
                 f"{results[s][name]['db'] * 1000:7.1f}{results[s][name]['queries']:4d}" for s in results)
        print(f"{name:<20}" + "".join(cells))
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
