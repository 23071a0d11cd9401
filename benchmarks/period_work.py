"""The rating officer's period work and the live list while results are saved, on a pool of
``--members`` members: a result save, the live list's pages right after a save (cold: the save
invalidated them), the close page, and reopening the latest period and closing it again.

    DATABASE_URL=postgres://…/empty_db .venv/bin/python benchmarks/period_work.py --members 20000

Seeds the (empty) database of ``DATABASE_URL`` (else a throw-away SQLite file) as
``pool_bench.py`` does (``--games`` rated games over ``--periods`` quarterly periods, all but the
last closed). Every figure is the median of its samples: wall time, the CPU time of this process
(Django's work) and, on PostgreSQL, the mean CPU time of the database server process serving it
(read from ``/proc`` in clock ticks: both run on this machine), with the load average at the
start and end of the run.
``--json`` writes the figures to a file.

``--existing`` uses the database of ``DATABASE_URL`` as it is (e.g. a restored
``busiest_hour.py`` dump, migrated) instead of seeding one; ``--saves-only`` stops after the
save; ``--check-ranks`` then compares every live rank (level and place) with a ranking from
scratch; ``--ab`` times the save alternately (blocks of five) as it places the players
(``ratings.services.live_places``) and with the pool's places and levels rebuilt instead
(``live_ranks_renumber``), in the same process and minutes, and checks the ranks at the end.
``--period-only`` times only the close page and reopening and closing (``--rounds`` times).
"""

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pool_bench import seed, setup_django  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def backend_cpu() -> float:
    """CPU seconds the database server process of this connection has used (0 on SQLite)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0.0
    pid = getattr(connection, "_bench_pid", None)
    if pid is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = connection._bench_pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Timed:
    """Wall, process CPU and database CPU of a block, in milliseconds, appended to ``into``."""

    def __init__(self, into: list):
        self.into = into

    def __enter__(self):
        self.wall, self.cpu, self.db = time.perf_counter(), time.process_time(), backend_cpu()
        return self

    def __exit__(self, *exc):
        self.into.append((1000 * (time.perf_counter() - self.wall), 1000 * (time.process_time() - self.cpu),
                          1000 * (backend_cpu() - self.db)))


def median(samples: list) -> dict:
    # (The database's CPU is counted in clock ticks of 10 ms: its mean, not its median.)
    walls, cpus, dbs = list(zip(*samples, strict=True))
    wall, cpu, db = statistics.median(walls), statistics.median(cpus), statistics.mean(dbs)
    return {"wall_ms": round(wall, 1), "cpu_ms": round(cpu, 1), "db_cpu_ms": round(db, 1),
            "server_cpu_ms": round(cpu + db, 1), "samples": len(samples)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=20000)
    parser.add_argument("--games", type=int, default=0, help="default: 5 per member")
    parser.add_argument("--periods", type=int, default=3)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--existing", action="store_true", help="use the database as it is")
    parser.add_argument("--saves-only", action="store_true")
    parser.add_argument("--ab", action="store_true", help="the save with the ranks placed and by bands")
    parser.add_argument("--check-ranks", action="store_true", help="compare the ranks with a ranking anew")
    parser.add_argument("--without-ranks", action="store_true",
                        help="with --ab: also the save keeping no ranks at all (leaves them wrong)")
    parser.add_argument("--period-only", action="store_true",
                        help="only the close page, reopening and closing")
    parser.add_argument("--rounds", type=int, default=2, help="reopenings and closings")
    args = parser.parse_args()
    games = args.games or 5 * args.members
    rng = random.Random(args.seed)
    load = [os.getloadavg()]
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        from django.conf import settings
        from django.contrib.auth.models import Group, User
        from django.db import connection
        from django.db.models import Count, F
        from django.test import Client
        from django.urls import reverse

        from clubrating.tournaments.models import Game, Result
        from ratings.models import PeriodState, RatingPeriod, RatingPool
        from ratings.services import game_record_result, period_close, period_reopen, pool_recalculate

        settings.ALLOWED_HOSTS = ["*"]
        t0 = time.perf_counter()
        if args.existing:
            pool = RatingPool.objects.annotate(n=Count("members")).order_by("-n").first()
            args.members = pool.n
        else:
            pool = seed(args.members, games, args.periods, rng)
            pool_recalculate(pool=pool)
            for _p in range(args.periods - 1):
                period_close(pool=pool)
            if connection.vendor == "postgresql":  # statistics, as autovacuum keeps them in production
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
            print(f"seeded {args.members} members, {games} games, {args.periods - 1} periods closed "
                  f"in {time.perf_counter() - t0:.0f} s", flush=True)

        officer, _new = User.objects.get_or_create(username="bench-officer")
        officer.groups.add(Group.objects.get_or_create(name=settings.RATING_OFFICERS_GROUP)[0])
        client = Client()
        client.force_login(officer)
        figures: dict = {"members": args.members, "games": None if args.existing else games,
                         "database": "existing" if args.existing else "seeded"}

        open_games = list(Game.objects.filter(
            rating_records__pool=pool, rating_records__period__state=PeriodState.OPEN,
            rating_records__white=True,
            rating_records__played_on__gte=F("rating_records__period__start"),
        ).values_list("pk", flat=True))
        results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]

        def save(into: list) -> None:
            game = Game.objects.get(pk=rng.choice(open_games))
            with Timed(into):
                game_record_result(game=game, result=rng.choice([r for r in results if r != game.result]))

        saves: list = []
        if args.ab:
            figures.update(_save_ab(pool, save, args.samples, args.without_ranks))
        else:
            for _i in range(0 if args.period_only else args.samples):
                save(saves)
            if saves:
                figures["result_save"] = median(saves)
            if args.check_ranks:
                figures.update(_ranks_check(pool))
        if args.saves_only:
            _done(figures, load, args.json)
            return

        live = reverse("ratings:live", args=[pool.pk])
        pages = {"live_by_rank": "", "live_by_name": "?sort=name", "live_page_100": "?page=100",
                 "live_filtered_u18": "?age=U18", "live_by_change": "?sort=-change"}
        for name, query in ({} if args.period_only else pages).items():
            samples: list = []
            for _i in range(max(3, args.samples // 5)):
                save([])  # the page is cold: the save invalidated it
                with Timed(samples):
                    response = client.get(live + query)
                assert response.status_code == 200, (name, response.status_code)
            figures[name + "_after_save"] = median(samples)

        period = RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)
        close_page = reverse("ratings:period_close", args=[period.pk])
        for name, query in {"close_page": "", "close_page_100": "?page=100"}.items():
            samples = []
            for _i in range(max(3, args.samples // 5)):
                with Timed(samples):
                    response = client.get(close_page + query)
                assert response.status_code == 200, (name, response.status_code)
            figures[name] = median(samples)

        latest = RatingPeriod.objects.filter(pool=pool, state=PeriodState.CLOSED).latest("start")
        reopen: list = []
        close_again: list = []
        for _i in range(args.rounds):
            with Timed(reopen):
                period_reopen(period=latest, reason="benchmark")
            with Timed(close_again):
                period_close(pool=pool)
        figures["reopen"] = median(reopen)
        figures["close_after_reopen"] = median(close_again)

    _done(figures, load, args.json)


def _done(figures: dict, load: list, path: Path | None) -> None:
    load.append(os.getloadavg())
    figures["load_average"] = [round(x, 2) for x in load[0]] + [round(x, 2) for x in load[1]]
    figures["date"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="minutes")
    print(json.dumps(figures, indent=1))
    if path:
        path.write_text(json.dumps(figures, indent=1) + "\n")


def _save_ab(pool, save, samples: int, without: bool) -> dict:
    """The save as it is (the players placed, ``live_places``) and with the pool's places and
    levels rebuilt instead (``without``: and keeping no ranks at all), alternately in blocks of
    five; then every rank compared with a ranking from scratch (``without`` leaves them wrong:
    the whole list is rebuilt first)."""
    import ratings.services.evaluation as evaluation
    from ratings.services.live_ranks import live_ranks_renumber

    placed, renumber = evaluation.live_ranks_place, evaluation.live_ranks_renumber
    kinds = ["result_save", "result_save_rebuilt", *(["result_save_without_ranks"] if without else [])]
    out: dict = {kind: [] for kind in kinds}
    for block in range((samples + 4) // 5):
        for kind in kinds if block % 2 == 0 else kinds[::-1]:
            evaluation.live_ranks_place = placed if kind == "result_save" else (lambda *a: None)
            if kind == "result_save_without_ranks":
                evaluation.live_ranks_renumber = lambda *a: 0
            try:
                for _i in range(5):
                    save(out[kind])
            finally:
                evaluation.live_ranks_place, evaluation.live_ranks_renumber = placed, renumber
    if without:
        live_ranks_renumber(pool.pk)
    return {kind: median(samples) for kind, samples in out.items()} | _ranks_check(pool)


def _ranks_check(pool) -> dict:
    """Every live rank as the list pages read it (level and place) against a ranking anew."""
    from ratings.lists.order import rank_key
    from ratings.live_level import live_rank_expression
    from ratings.models import PoolMember

    rows = PoolMember.objects.filter(pool=pool, live_rating__isnull=False).annotate(
        live_rank=live_rank_expression()).values_list(
        "member_id", "live_rating", "member__last_name", "member__first_name", "live_rank")
    ordered = sorted(rows, key=lambda r: rank_key(r[1], r[2], r[3], r[0]))
    wrong = sum(1 for place, row in enumerate(ordered, start=1) if row[4] != place)
    return {"ranks_checked": len(ordered), "ranks_differing_from_scratch": wrong}


if __name__ == "__main__":
    main()
