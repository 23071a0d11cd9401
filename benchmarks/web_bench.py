"""Page times of the public pages at federation scale (home, rating lists, exports, member page).

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/web_bench.py [--sizes 1000,5000,20000] [--json]

Each size gets its own database (``<name>_web<N>`` on PostgreSQL, ``<file>-web<N>.sqlite3`` on
SQLite, a temporary file without ``DATABASE_URL``) holding one ``oesb-2024`` pool with N members
and 10×N games: half in a closed period (so a period list with changes is published), half in
the open period (so the live list has changes). A database built before is reused. Pages are
requested through Django's test client at their real URLs; each figure is the median of
``--runs`` requests (the first, warming request is not counted). Every size runs in its own
process because Django binds to one database per process.

The largest size also gets the work that is not a page: one official's result POST (median of
20 confirmed saves), 20 officials saving different boards at once through the real result-entry view,
each in his own process as behind a multi-worker server (p95),
the whole pool's recalculation, reopening and closing its latest period, and a load run: gunicorn
with 3 workers on 127.0.0.1 under production settings (DEBUG off, after ``collectstatic``) and
``wrk`` with 16 connections for ``--load-seconds`` per page (the list, home and member pages and,
for comparison, the bare admin login page). Without ``wrk`` the load run is skipped with a message
(``apt-get install wrk``); ``--no-extras`` skips all of it, ``--only load,result_post`` runs only
those works (no page times).
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
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("home", "list", "list_live", "list_sorted", "member", "csv", "xlsx", "print_first_byte")


def _size_url(url: str, size: int) -> str:
    """The per-size database of ``url`` (created on PostgreSQL when missing)."""
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        path = Path(parts.path[1:] if parts.path.startswith("//") else parts.path)
        suffix = path.suffix or ".sqlite3"
        return f"sqlite:///{path.with_name(f'{path.stem}-web{size}{suffix}')}"
    name = f"{parts.path.lstrip('/') or 'postgres'}_web{size}"
    import psycopg

    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def _setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    call_command("migrate", verbosity=0)


def _seed(size: int, rng: random.Random):
    """N members in 40 clubs, a starting list (10 % newcomers), 10×N games over two periods."""
    from clubrating.clubs.models import Club, Member
    from clubrating.tournaments.models import Game, Result, Round, Tournament
    from ratings.services import period_close, pool_create, pool_recalculate
    from ratings.services.lists import EntryData, list_publish

    clubs = Club.objects.bulk_create([Club(name=f"SK Bench {i}") for i in range(40)])
    Member.objects.bulk_create(
        [
            Member(first_name=f"Vorname{i % 997}", last_name=f"Spieler{rng.randrange(10**6):06d}",
                   birth_year=1940 + i % 75, sex="mf"[i % 5 == 0], club=clubs[i % len(clubs)],
                   active=i % 7 != 0)
            for i in range(size)
        ],
        batch_size=2000,
    )
    ids = list(Member.objects.values_list("pk", flat=True))
    start = datetime.date(2023, 1, 1)
    pool = pool_create(name=f"Bench {size}", rules="oesb-2024", start_date=start)
    newcomers = set(rng.sample(ids, size // 10))
    list_publish(
        pool=pool, valid_from=start, kind="start",
        entries={m: EntryData(rating=rng.randint(1000, 2400), games_count=rng.randint(0, 300))
                 for m in ids if m not in newcomers},
    )
    rounds, tournaments_per_period = 10, 10
    boards = max(1, 10 * size // (2 * tournaments_per_period * rounds))
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for p in range(2):  # quarterly periods of oesb-2024: 2023 Q1 (closed later) and Q2 (open)
        first_day = datetime.date(2023, 1 + 3 * p, 2)
        for t in range(tournaments_per_period):
            tournament = Tournament.objects.create(
                name=f"Bench {p}-{t}", kind="swiss", start_date=first_day + datetime.timedelta(days=7 * t),
                rounds_count=rounds,
            )
            round_objs = Round.objects.bulk_create([
                Round(tournament=tournament, number=r + 1,
                      date=tournament.start_date + datetime.timedelta(days=r % 5))
                for r in range(rounds)
            ])
            games = []
            for rnd in round_objs:
                players = rng.sample(ids, min(len(ids), 2 * boards))
                for b in range(len(players) // 2):
                    result = rng.choice(results)
                    games.append(Game(round=rnd, board=b + 1, white_id=players[2 * b],
                                      black_id=players[2 * b + 1], result=result, rated_result=result))
            Game.objects.bulk_create(games, batch_size=2000)
    pool_recalculate(pool=pool)
    period_close(pool=pool)
    return pool


def _median_time(client, url: str, runs: int, *, first_byte: bool = False, headers=None) -> float:
    def once() -> float:
        t0 = time.perf_counter()
        response = client.get(url, **(headers or {}))
        assert response.status_code == 200, (url, response.status_code)
        if response.streaming:
            iterator = iter(response.streaming_content)
            next(iterator, None)
            if first_byte:
                elapsed = time.perf_counter() - t0
                for _chunk in iterator:
                    pass
                return elapsed
            for _chunk in iterator:
                pass
        return time.perf_counter() - t0

    once()  # warm up: templates, translations, connection
    return statistics.median(once() for _ in range(runs))



def _board_url(game) -> str:
    from django.urls import reverse

    return reverse("tournaments:board_result", args=[game.round.tournament_id, game.round.number, game.pk])


def _official_saves(official_pk: int, chunk: list, barrier, out, warm: bool = False) -> None:
    """One official in his own process: log in, wait for the others, save his boards. ``warm``:
    first draw his first board (untimed), as a server's worker has served pages before."""
    from django.contrib.auth.models import User
    from django.db import connections
    from django.test import Client

    timings, failed = [], []
    try:
        client = Client()
        client.force_login(User.objects.get(pk=official_pk))
        if warm and chunk:
            assert client.get(chunk[0][0], HTTP_HX_REQUEST="true").status_code == 200
        barrier.wait(timeout=300)
        for url, result, seen in chunk:
            t0 = time.perf_counter()
            form = {"result": result, "seen": seen, "confirm": "1"}
            response = client.post(url, form, HTTP_HX_REQUEST="true")
            timings.append(time.perf_counter() - t0)
            if response.status_code != 200 or b"alert-danger" in response.content:
                failed.append(f"{url}: HTTP {response.status_code}")
    except Exception as error:  # counted and shown, the other officials go on
        failed.append(repr(error)[:200])
        barrier.abort()
    finally:
        connections.close_all()
        out.put((timings, failed))


def officials_run(pool, threads: int = 20, saves: int = 10, warm: bool = False) -> float | None:
    """``threads`` officials save different boards of the open period at the same moment through
    the real result-entry view (htmx POST), each in his own process (as behind a server with
    several workers: threads of one process would wait for each other on Python's global lock,
    not on the database); returns the 95th percentile of a save in seconds. A process forked for
    the run has served no request: its first save also loads the URLs, views and templates
    (about 40 ms of CPU, all 20 at once). ``warm`` (``--officials-warm``) has each process draw
    a board first, untimed, as the workers of a running server have."""
    import multiprocessing
    import random

    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.db import connections
    from django.db.models import F

    from clubrating.tournaments.models import Game, Result

    games = list(
        Game.objects.filter(
            rating_records__pool=pool,
            rating_records__period__state="open",
            rating_records__white=True,
            rating_records__played_on__gte=F("rating_records__period__start"),
        ).select_related("round")[: threads * saves]
    )
    if len(games) < threads:
        print("# officials: too few open games", file=sys.stderr)
        return None
    official, _created = User.objects.get_or_create(username="bench-official")
    official.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    rng = random.Random(3)
    choices = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    plan = [(g, rng.choice([r for r in choices if r != g.result])) for g in games]
    chunks = [[(_board_url(g), r, g.result) for g, r in plan[i::threads]] for i in range(threads)]
    context = multiprocessing.get_context("fork")
    barrier, out = context.Barrier(threads), context.Queue()
    connections.close_all()  # each process opens its own connection
    workers = [
        context.Process(target=_official_saves, args=(official.pk, chunk, barrier, out, warm))
        for chunk in chunks
    ]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    timings: list[float] = []
    failed: list[str] = []
    for _w in workers:
        done, errors = out.get(timeout=600)
        timings += done
        failed += errors
    for w in workers:
        w.join()
    wall = time.perf_counter() - t0
    saved = dict(Game.objects.filter(pk__in=[g.pk for g, _r in plan]).values_list("pk", "result"))
    wrong = [g.pk for g, r in plan if saved[g.pk] != r]
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(
        f"# officials{' (warm processes)' if warm else ''}: {threads} processes at once, "
        f"{len(timings)} saves in {wall:.1f} s "
        f"({len(timings) / wall:.0f} saves/s), "
        f"median {1000 * timings[len(timings) // 2]:.0f} ms, p95 {1000 * p95:.0f} ms"
        + (f"; NOT SAVED: {wrong[:5]} {failed[:5]}" if wrong or failed else ""),
        file=sys.stderr,
    )
    return p95


def load_run(paths: dict[str, str], seconds: int = 10, connections: int = 16) -> dict[str, float]:
    """Requests per second of each page from gunicorn (3 workers, production settings, DEBUG off)
    under wrk with ``connections`` connections; skipped with a message when wrk is missing."""
    import re
    import shutil
    import socket
    import subprocess
    import urllib.request

    if shutil.which("wrk") is None:
        print("# load: skipped, wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return {}
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor == "sqlite":
        url = f"sqlite:///{s['NAME']}"
    else:
        url = f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:{s['PORT']}/{s['NAME']}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CLUBRATING_"))
    } | {
        "DATABASE_URL": url, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "bench-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0", "DATABASE_CONN_MAX_AGE": "60", "CLUBRATING_ENV_FILE": "/nonexistent/.env",
    }
    root = Path(__file__).resolve().parent.parent
    python = sys.executable
    subprocess.run([python, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    server = subprocess.Popen(
        [str(Path(python).with_name("gunicorn")), "clubrating.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", "3", "--log-level", "warning"],
        cwd=root, env=env,
    )
    results: dict[str, float] = {}
    try:
        base = f"http://127.0.0.1:{port}"
        for _attempt in range(100):
            try:
                urllib.request.urlopen(base + "/admin/login/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        for name, path in paths.items():
            urllib.request.urlopen(base + path, timeout=60).read()  # warm: caches, connections
            out = subprocess.run(
                ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", base + path],
                capture_output=True, text=True, check=True,
            ).stdout
            rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
            errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
            results[name] = rate
            print(f"# load {name}: {rate:.0f} req/s" + (f" ({errors.group(1)} non-2xx)" if errors else ""),
                  file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return results


def _backend_cpu() -> float | None:
    """CPU seconds the database's server process of this connection has used so far (PostgreSQL
    on this machine, read from /proc); None where that cannot be read."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _result_post(pool, saves: int = 20) -> float:
    """One official alone: the median of ``saves`` result POSTs through the result-entry view.
    Also printed: the CPU time of a save, of this process (the application, the test client
    included) and of the PostgreSQL server process (when on this machine), the mean of the
    timed saves."""
    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.db.models import F
    from django.test import Client

    from clubrating.tournaments.models import Game, Result

    official, _created = User.objects.get_or_create(username="bench-official")
    official.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    client = Client()
    client.force_login(official)
    games = Game.objects.filter(
        rating_records__pool=pool, rating_records__period__state="open", rating_records__white=True,
        rating_records__played_on__gte=F("rating_records__period__start"),
    ).select_related("round").order_by("-pk")[: saves + 1]
    timings, cpu, backend = [], [], []
    for game in games:
        result = Result.DRAW if game.result != Result.DRAW else Result.WHITE_WINS
        url = _board_url(game)
        b0 = _backend_cpu()
        c0, t0 = time.process_time(), time.perf_counter()
        # A changed result is saved once confirmed (the second step of the form).
        form = {"result": result, "seen": game.result, "confirm": "1"}
        response = client.post(url, form, HTTP_HX_REQUEST="true")
        timings.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        b1 = _backend_cpu()
        backend.append(None if b0 is None or b1 is None else b1 - b0)
        assert response.status_code == 200 and b"alert-danger" not in response.content, response.content[:300]
        game.refresh_from_db()
        assert game.result == result, f"board {game.pk} not saved"
    server = (f", PostgreSQL {1000 * statistics.mean(backend[1:]):.1f} ms"
              if None not in backend else "")
    print(f"# result_post CPU a save: application {1000 * statistics.mean(cpu[1:]):.1f} ms{server} "
          f"(load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
    return statistics.median(timings[1:])  # the first warms up


def _pool_work(pool) -> dict[str, float]:
    """Recalculating the whole pool, reopening its latest closed period and closing it again."""
    from ratings.models import PeriodState, RatingPeriod
    from ratings.services import period_close, period_reopen, pool_recalculate

    figures = {}
    t0 = time.perf_counter()
    records = pool_recalculate(pool=pool)
    figures["recalculate"] = time.perf_counter() - t0
    print(f"# recalculation: {records} records in {figures['recalculate']:.1f} s", file=sys.stderr)
    latest = RatingPeriod.objects.filter(pool=pool, state=PeriodState.CLOSED).latest("start")
    t0 = time.perf_counter()
    period_reopen(period=latest, reason="benchmark")
    figures["reopen"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    plist = period_close(pool=pool)
    figures["close"] = time.perf_counter() - t0
    entries = plist.entries.count()
    print(f"# reopen {figures['reopen']:.2f} s, close ({entries} entries) {figures['close']:.2f} s",
          file=sys.stderr)
    return figures


EXTRAS = ("result_post", "officials", "pool_work", "load")


def _extras(pool, load_seconds: int, only: set[str], officials_warm: bool = False) -> dict:
    from django.urls import reverse

    from clubrating.clubs.models import Member
    from ratings.models import PublishedList

    pages, timings, load, p95 = {}, {}, {}, None
    if "result_post" in only:
        pages["result_post"] = _result_post(pool)
        print(f"# result_post       {pages['result_post']:.3f} s", file=sys.stderr)
    if "officials" in only:
        p95 = officials_run(pool, warm=officials_warm)
    if "pool_work" in only:
        timings = _pool_work(pool)
    if "load" in only:
        plist = PublishedList.objects.filter(pool=pool, superseded=False).order_by("-pk").first()
        member = Member.objects.order_by("pk")[Member.objects.count() // 2]
        load = load_run(
            {
                "list": reverse("ratings:list", args=[plist.pk]),
                "home": reverse("home"),
                "member": member.get_absolute_url(),
                "admin_login": reverse("admin:login"),
            },
            seconds=load_seconds,
        )
    return {"pages": pages, "timings": timings, "load": load, "officials_p95_s": p95}


def _measure(size: int, runs: int, pdf: bool = False) -> dict[str, float]:
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from clubrating.clubs.models import Member
    from ratings.models import PublishedList, RatingPool

    pool = RatingPool.objects.filter(name=f"Bench {size}").first()
    if pool is None:
        t0 = time.perf_counter()
        pool = _seed(size, random.Random(size))
        print(f"# seeded {size} members in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    plist = PublishedList.objects.filter(pool=pool, superseded=False).order_by("-pk").first()
    member = Member.objects.order_by("pk")[size // 2]
    list_url = reverse("ratings:list", args=[plist.pk])
    urls = {
        "home": reverse("home"),
        "list": list_url,
        "list_live": reverse("ratings:live", args=[pool.pk]),
        "list_sorted": f"{list_url}?sort=name",
        "member": member.get_absolute_url(),
        "csv": f"{list_url}?_export=csv",
        "xlsx": f"{list_url}?_export=xlsx",
        "print_first_byte": reverse("ratings:list_print", args=[plist.pk]),
    }
    client = Client()
    figures = {}
    for page, url in urls.items():
        cache.clear()  # cold: the figure is the work, not the cache
        figures[page] = _median_time(client, url, runs, first_byte=page == "print_first_byte")
        print(f"# {size:>6} {page:<17} {figures[page]:.3f} s", file=sys.stderr)
    if pdf:  # the whole list's PDF, once: a background job, run at once by the immediate backend
        from clubrating.jobs.models import Job

        cache.clear()
        Job.objects.filter(key__startswith="pdf:").delete()  # drawn anew, not the stored file
        t0 = time.perf_counter()
        response = client.get(reverse("ratings:list_pdf", args=[plist.pk]))
        figures["pdf"] = time.perf_counter() - t0
        if response.status_code == 302:
            job = Job.objects.filter(key__startswith="pdf:").latest("pk")
            assert job.state == "done" and bytes(job.output).startswith(b"%PDF-"), (job.state, job.message)
        else:
            assert response.status_code == 200 and response.content.startswith(b"%PDF-")
        print(f"# {size:>6} pdf               {figures['pdf']:.3f} s", file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON object on standard output")
    parser.add_argument("--pdf", action="store_true", help="also time the whole list's PDF (once)")
    parser.add_argument("--no-extras", action="store_true", help="pages only: no officials, load, pool work")
    parser.add_argument("--load-seconds", type=int, default=10, help="wrk's duration per page")
    parser.add_argument(
        "--only",
        help=f"comma-separated: only these works of the largest size, no page times ({', '.join(EXTRAS)})",
    )
    parser.add_argument(
        "--officials-warm", action="store_true",
        help="each official's process draws a board (untimed) before the saves, as a running server's worker",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in a child process
    parser.add_argument("--extras", action="store_true", help=argparse.SUPPRESS)  # ... the largest
    args = parser.parse_args()
    if args.one:
        _setup_django()
        from django.core.cache import cache

        from ratings.models import RatingPool

        cache.clear()
        only = set(args.only.split(",")) if args.only else set()
        out = {"pages": {} if only else _measure(args.one, args.runs, args.pdf)}
        if args.extras:
            extra = _extras(RatingPool.objects.get(name=f"Bench {args.one}"), args.load_seconds,
                            only or set(EXTRAS), args.officials_warm)
            out = {**extra, "pages": {**out["pages"], **extra["pages"]}}
        print(json.dumps(out))
        return

    default = Path(tempfile.gettempdir()) / "clubrating-web.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    pages: dict[str, dict[str, float]] = {page: {} for page in PAGES}
    sizes = [int(s) for s in args.sizes.split(",") if s]
    extra: dict = {"load": {}, "officials_p95_s": None, "timings": {}}
    if args.only:
        unknown = set(args.only.split(",")) - set(EXTRAS)
        if unknown or args.no_extras:
            parser.error(f"--only: expected some of {', '.join(EXTRAS)}, without --no-extras")
        sizes = [max(sizes)]
    for size in sizes:
        env = {**os.environ, "DATABASE_URL": _size_url(base, size)}
        largest = size == max(sizes) and not args.no_extras
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--runs", str(args.runs),
             "--load-seconds", str(args.load_seconds), *(["--only", args.only] if args.only else []),
             *(["--pdf"] if args.pdf else []), *(["--extras"] if largest else []),
             *(["--officials-warm"] if args.officials_warm else [])],
            env=env, check=True, stdout=subprocess.PIPE, text=True,
        ).stdout
        figures = json.loads(out.strip().splitlines()[-1])
        for page, seconds in figures["pages"].items():
            pages.setdefault(page, {})[str(size)] = round(seconds, 4)
        if largest:
            extra = {key: figures[key] for key in ("load", "officials_p95_s", "timings")}
    if args.json:
        print(json.dumps({"pages": pages, **extra}))
        return
    largest = max(sizes)
    sizes = sorted({s for figures in pages.values() for s in figures}, key=int)
    print(f"{'page':<18}" + "".join(f"{s:>10}" for s in sizes) + "   (seconds, median)")
    for page, figures in pages.items():
        if figures:
            print(f"{page:<18}" + "".join(f"{figures.get(s, float('nan')):>10.3f}" for s in sizes))
    for work, seconds in extra["timings"].items():
        print(f"{work:<18}{seconds:>10.2f} s at {largest}")
    if extra["officials_p95_s"] is not None:
        warm = ", warm processes" if args.officials_warm else ""
        print(f"{'officials p95':<18}{extra['officials_p95_s']:>10.3f} s (20 at once{warm})")
    for page, rate in extra["load"].items():
        print(f"{'load ' + page:<18}{rate:>10.0f} req/s")


if __name__ == "__main__":
    main()
