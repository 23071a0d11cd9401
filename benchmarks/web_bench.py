"""Page times of the public pages at federation scale (home, rating lists, searches, exports,
member page), cold and warm.

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/web_bench.py [--sizes 1000,5000,20000] [--json]

Each size gets its own database (``<name>_web<N>`` on PostgreSQL, ``<file>-web<N>.sqlite3`` on
SQLite, a temporary file without ``DATABASE_URL``) holding one ``oesb-2024`` pool with N members
and 10×N games: half in a closed period (so a period list with changes is published), half in
the open period (so the live list has changes). A database built before is reused. Pages are
requested through Django's test client at their real URLs (``page_urls``, ``search_urls``; more
pages through ``PAGE_SOURCES``). Each figure is the median of ``--runs`` requests: *cold* with the
cache emptied before each (``pages_cold``, ``search``), *warm* after one untimed request that fills
the cache (``pages``), and right after a real result save (``after_save``); beside them a bare
page (the admin login, ``baseline``) and the load average of the same run. Every size runs in its
own process because Django binds to one database per process.

The largest size also gets the work that is not a page: one official's result POST (median of
20 confirmed saves), 20 officials saving different boards at once through the real result-entry view,
each in his own process as behind a multi-worker server (p95),
the whole pool's recalculation, reopening and closing its latest period, and a load run: gunicorn
with 3 workers on 127.0.0.1 under production settings (DEBUG off, after ``collectstatic``, the
documented defaults) and ``wrk`` with 16 connections for ``--load-seconds`` per page (the list,
home and member pages), each followed by the bare admin login page. Without ``wrk`` the load run is
skipped with a message (``apt-get install wrk``); ``--no-extras`` skips all of it, ``--only
load,result_post`` runs only those works (no page times).
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
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


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
    from bench_seed import keys_unchecked

    with keys_unchecked():
        return _seed_sets(size, rng)


def _seed_sets(size: int, rng: random.Random):
    """``_seed``'s work: members and games written in sets (``bench_seed``: COPY, no model object
    per row), rated by the ratings app: the first period's games recalculated and closed, then
    the second period's (open) games rated in one more recalculation (which finds the first
    period's records as it left them and writes only the new ones)."""
    from bench_seed import objects_write

    from clubrating.clubs.models import Club, Member
    from clubrating.tournaments.models import Game, Result, Round, Tournament
    from ratings.services import period_close, pool_create, pool_recalculate
    from ratings.services.lists import EntryData, list_publish

    clubs = Club.objects.bulk_create([Club(name=f"SK Bench {i}") for i in range(40)])
    objects_write(Member, ("first_name", "last_name", "birth_year", "sex", "club_id", "active"), (
        (f"Vorname{i % 997}", f"Spieler{rng.randrange(10**6):06d}", 1940 + i % 75, "mf"[i % 5 == 0],
         clubs[i % len(clubs)].pk, i % 7 != 0)
        for i in range(size)
    ))
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
                    games.append((rnd.pk, b + 1, players[2 * b], players[2 * b + 1], result, result))
            objects_write(Game, ("round_id", "board", "white_id", "black_id", "result", "rated_result"),
                          games)
        if p == 0:
            pool_recalculate(pool=pool)
            period_close(pool=pool)
    pool_recalculate(pool=pool)
    return pool


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


def load_run(paths: dict[str, str], seconds: int = 10, connections: int = 16
             ) -> tuple[dict[str, float], dict[str, float]]:
    """Requests per second of each page from gunicorn (3 workers, production settings, DEBUG off)
    under wrk with ``connections`` connections, each page followed by the bare baseline page
    (``BASELINE_URL``) so that both are measured under the same conditions; returns
    (page rates, baseline rates by page). Skipped with a message when wrk is missing."""
    import re
    import shutil
    import socket
    import subprocess
    import urllib.request

    if shutil.which("wrk") is None:
        print("# load: skipped, wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return {}, {}
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
        "DJANGO_HSTS_SECONDS": "0", "CLUBRATING_ENV_FILE": "/nonexistent/.env",
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
    baseline: dict[str, float] = {}

    def rate(path: str) -> tuple[float, str]:
        out = subprocess.run(
            ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", base + path],
            capture_output=True, text=True, check=True,
        ).stdout
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        p99 = re.search(r"99%\s+(\S+)", out)
        note = (f", p99 {p99.group(1)}" if p99 else "") + (f" ({errors.group(1)} non-2xx)" if errors else "")
        return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), note

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
            results[name], note = rate(path)
            baseline[name], base_note = rate(BASELINE_URL)
            print(f"# load {name}: {results[name]:.0f} req/s{note}; baseline right after "
                  f"{baseline[name]:.0f} req/s{base_note} (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return results, baseline


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
    figures["close_plain"] = _plain_close()
    return figures


def _database_copy(url: str, *, drop: bool = False) -> str:
    """The URL of a copy of this size's database (``url``), made anew; with ``drop`` the copy is
    removed instead. PostgreSQL copies it as a template (no connection to it may be open)."""
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        import sqlite3

        path = Path(parts.path[1:] if parts.path.startswith("//") else parts.path)
        copy = path.with_name(f"{path.stem}-close{path.suffix}")
        copy.unlink(missing_ok=True)
        if not drop:
            with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
                source.backup(target)
        return f"sqlite:///{copy}"
    import psycopg

    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}_close"')
        if not drop:
            conn.execute(f'CREATE DATABASE "{name}_close" TEMPLATE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}_close"))


def _plain_close() -> float:
    """Closing the open period at its end, as every period is closed (its successor is new, with
    only the games entered ahead of time): 20,000 members, the period's 200,000 records. Timed on
    a copy of the database, in a process of its own, so that this database keeps its open period
    for the next run (a closed period's reopening is timed above)."""
    from django.db import connections

    url = os.environ["DATABASE_URL"]
    connections.close_all()
    copy = _database_copy(url)
    try:
        out = subprocess.run([sys.executable, __file__, "--close-copy"], check=True, text=True,
                             env={**os.environ, "DATABASE_URL": copy}, stdout=subprocess.PIPE).stdout
    finally:
        _database_copy(url, drop=True)
    seconds = json.loads(out.strip().splitlines()[-1])["close_plain"]
    print(f"# close at the period's end (a copy of the database) {seconds:.2f} s", file=sys.stderr)
    return seconds


def _close_copy() -> None:
    """In the process of ``_plain_close``: close the open period of the copy, timed."""
    _setup_django()
    from ratings.models import RatingPool
    from ratings.services import period_close

    pool = RatingPool.objects.get(name__startswith="Bench ")
    t0 = time.perf_counter()
    plist = period_close(pool=pool)
    seconds = time.perf_counter() - t0
    print(f"# closed {plist.period} with {plist.entries.count()} entries", file=sys.stderr)
    print(json.dumps({"close_plain": seconds}))


EXTRAS = ("result_post", "officials", "pool_work", "load")


def _extras(pool, load_seconds: int, only: set[str], officials_warm: bool = False) -> dict:
    from django.urls import reverse

    from clubrating.clubs.models import Member
    from ratings.models import PublishedList

    pages, timings, load, load_baseline, p95 = {}, {}, {}, {}, None
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
        load, load_baseline = load_run(
            {
                "list": reverse("ratings:list", args=[plist.pk]),
                "home": reverse("home"),
                "member": member.get_absolute_url(),
            },
            seconds=load_seconds,
        )
    return {"pages": pages, "timings": timings, "load": load, "load_baseline": load_baseline,
            "officials_p95_s": p95}


def page_urls(pool, plist, member) -> dict[str, str]:
    """The timed pages, name -> URL. Further pages are further entries: a module that seeds its
    own data and returns ``{name: url}`` is added to ``PAGE_SOURCES``."""
    from django.urls import reverse

    list_url = reverse("ratings:list", args=[plist.pk])
    live_url = reverse("ratings:live", args=[pool.pk])
    last_page = max(1, -(-plist.entries.count() // 100))
    club = plist.entries.filter(club__isnull=False).values_list("club__name", flat=True).first() or ""
    return {
        "home": reverse("home"),
        "list": list_url,
        "list_live": live_url,
        "list_sorted": f"{list_url}?sort=name",
        "list_sorted_rating_desc": f"{list_url}?sort=-rating",
        "list_sorted_club": f"{list_url}?sort=club",
        "list_page150": f"{list_url}?page={min(150, last_page)}",
        "list_filtered": f"{list_url}?{urlencode({'club': club, 'active': 'on'})}",
        "list_live_sorted": f"{live_url}?sort=name",
        "list_live_page150": f"{live_url}?page={min(150, last_page)}",
        "member": member.get_absolute_url(),
        "members": reverse("clubs:member_list"),
        "csv": f"{list_url}?_export=csv",
        "xlsx": f"{list_url}?_export=xlsx",
        "print_first_byte": reverse("ratings:list_print", args=[plist.pk]),
    }


def search_urls(pool, plist, member) -> dict[str, str]:
    """Searches by a part of a name: the member search and the list's name filter."""
    from django.urls import reverse

    word = member.last_name[-5:]  # a part inside the name: served by the trigram index only
    return {
        "member_search": f"{reverse('clubs:member_list')}?{urlencode({'q': word})}",
        "list_search": f"{reverse('ratings:list', args=[plist.pk])}?{urlencode({'name': word})}",
    }


def _tournament_pages() -> dict[str, str]:
    """A 300-player Swiss of 9 rounds paired and entered by the app (``tournament_pages.seed``):
    its standings, crosstable, last round's pairings, rating evaluation and progress table."""
    import tournament_pages

    return tournament_pages.seed(players=300, rounds=9, rng=random.Random(300))


# Callables returning further pages ``{name: url}`` (seeding what they need), called once per size.
PAGE_SOURCES: list = [_tournament_pages]
BASELINE_URL = "/admin/login/"  # a bare page: the site's frame without any data


def _timed_get(client, url: str, *, first_byte: bool = False) -> float:
    t0 = time.perf_counter()
    response = client.get(url)
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


def _cold_time(client, url: str, runs: int, *, first_byte: bool = False) -> float:
    """The median of ``runs`` requests, the cache emptied before each (the process itself has
    served the page once: templates and translations are loaded, as in a running server)."""
    from django.core.cache import cache

    cache.clear()
    _timed_get(client, url, first_byte=first_byte)
    timings = []
    for _ in range(runs):
        cache.clear()
        timings.append(_timed_get(client, url, first_byte=first_byte))
    return statistics.median(timings)


def _warm_time(client, url: str, runs: int, *, first_byte: bool = False) -> float:
    """The median of ``runs`` requests after an untimed one that fills the cache."""
    from django.core.cache import cache

    cache.clear()
    _timed_get(client, url, first_byte=first_byte)
    return statistics.median(_timed_get(client, url, first_byte=first_byte) for _ in range(runs))


def _after_save(client, pool, live_urls: dict[str, str], runs: int) -> dict[str, float]:
    """Each page right after a real result save (the official's POST through the result-entry
    view, which invalidates the live list's cache): the median of ``runs`` such requests."""
    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.db.models import F
    from django.test import Client

    from clubrating.tournaments.models import Game, Result

    official, _created = User.objects.get_or_create(username="bench-official")
    official.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    saver = Client()
    saver.force_login(official)
    games = iter(Game.objects.filter(
        rating_records__pool=pool, rating_records__period__state="open", rating_records__white=True,
        rating_records__played_on__gte=F("rating_records__period__start"),
    ).select_related("round").order_by("pk")[: (runs + 1) * len(live_urls)])
    figures = {}
    for name, url in live_urls.items():
        timings = []
        for run in range(runs + 1):
            game = next(games)
            result = Result.DRAW if game.result != Result.DRAW else Result.WHITE_WINS
            form = {"result": result, "seen": game.result, "confirm": "1"}
            response = saver.post(_board_url(game), form, HTTP_HX_REQUEST="true")
            assert response.status_code == 200 and b"alert-danger" not in response.content
            elapsed = _timed_get(client, url)
            if run:  # the first loads the page's code
                timings.append(elapsed)
        figures[name] = statistics.median(timings)
    return figures


def _measure(size: int, runs: int, pdf: bool = False) -> dict[str, dict[str, float]]:
    """``{"pages": warm, "pages_cold": cold, "baseline": s, "search": cold, "after_save": s}``."""
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
    urls = page_urls(pool, plist, member)
    for source in PAGE_SOURCES:
        urls.update(source())
    client = Client()
    out: dict = {"pages": {}, "pages_cold": {}, "search": {}, "search_warm": {}, "after_save": {}}
    out["baseline"] = _cold_time(client, BASELINE_URL, runs)
    load = os.getloadavg()[0]
    print(f"# {size:>6} {'baseline':<24} {out['baseline']:.3f} s   (load {load:.2f})", file=sys.stderr)
    for page, url in urls.items():
        first_byte = page == "print_first_byte"
        out["pages_cold"][page] = _cold_time(client, url, runs, first_byte=first_byte)
        out["pages"][page] = _warm_time(client, url, runs, first_byte=first_byte)
        print(f"# {size:>6} {page:<24} cold {out['pages_cold'][page]:.3f} s  warm {out['pages'][page]:.3f} s"
              f"   (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
    for name, url in search_urls(pool, plist, member).items():
        out["search"][name] = _cold_time(client, url, runs)
        out["search_warm"][name] = _warm_time(client, url, runs)
        print(f"# {size:>6} {name:<24} cold {out['search'][name]:.3f} s   (load {os.getloadavg()[0]:.2f})",
              file=sys.stderr)
    out["after_save"] = _after_save(client, pool, {"list_live": urls["list_live"],
                                                   "list_live_sorted": urls["list_live_sorted"]}, runs)
    for name, seconds in out["after_save"].items():
        print(f"# {size:>6} {name + ' after save':<24} {seconds:.3f} s   (load {os.getloadavg()[0]:.2f})",
              file=sys.stderr)
    out["load_average"] = load
    if pdf:  # the whole list's PDF, once: a background job, run at once by the immediate backend
        from clubrating.jobs.models import Job

        cache.clear()
        Job.objects.filter(key__startswith="pdf:").delete()  # drawn anew, not the stored file
        t0 = time.perf_counter()
        response = client.get(reverse("ratings:list_pdf", args=[plist.pk]))
        out["pages"]["pdf"] = time.perf_counter() - t0
        if response.status_code == 302:
            job = Job.objects.filter(key__startswith="pdf:").latest("pk")
            assert job.state == "done" and bytes(job.output).startswith(b"%PDF-"), (job.state, job.message)
        else:
            assert response.status_code == 200 and response.content.startswith(b"%PDF-")
        print(f"# {size:>6} pdf                      {out['pages']['pdf']:.3f} s", file=sys.stderr)
    return out


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
    parser.add_argument("--close-copy", action="store_true", help=argparse.SUPPRESS)  # ``_plain_close``
    args = parser.parse_args()
    if args.close_copy:
        _close_copy()
        return
    if args.one:
        _setup_django()
        from django.core.cache import cache

        from ratings.models import RatingPool

        cache.clear()
        only = set(args.only.split(",")) if args.only else set()
        out = {"pages": {}} if only else _measure(args.one, args.runs, args.pdf)
        if args.extras:
            extra = _extras(RatingPool.objects.get(name=f"Bench {args.one}"), args.load_seconds,
                            only or set(EXTRAS), args.officials_warm)
            out = {**out, **extra, "pages": {**out["pages"], **extra["pages"]}}
        print(json.dumps(out))
        return

    default = Path(tempfile.gettempdir()) / "clubrating-web.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    # {PAGE: {SIZE: s}} each; "baseline" and "load_average" {SIZE: …}
    result: dict[str, dict] = {key: {} for key in ("pages", "pages_cold", "search", "after_save")}
    result |= {"baseline": {}, "load_average": {}}
    sizes = [int(s) for s in args.sizes.split(",") if s]
    _search_warm: dict[int, dict] = {}
    extra: dict = {"load": {}, "load_baseline": {}, "officials_p95_s": None, "timings": {}}
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
        for key in ("pages", "pages_cold", "search", "after_save"):
            for page, seconds in figures.get(key, {}).items():
                result[key].setdefault(page, {})[str(size)] = round(seconds, 4)
        _search_warm[size] = figures.get("search_warm", {})
        for key in ("baseline", "load_average"):
            if key in figures:
                result[key][str(size)] = round(figures[key], 4 if key == "baseline" else 2)
        if largest:
            extra = {key: figures.get(key) for key in extra}
    if args.json:
        # Besides the details: the member search and the live list right after a save as pages
        # of their own, and the Swiss' main pages as top-level figures (cold: {SIZE: s}).
        warm_search = {}
        for size in sizes:
            figures = _search_warm.get(size, {})
            if "member_search" in figures:
                warm_search[str(size)] = round(figures["member_search"], 4)
        if "member_search" in result["search"]:
            result["pages_cold"]["search"] = result["search"]["member_search"]
            result["pages"]["search"] = warm_search
        if "list_live" in result["after_save"]:
            result["pages_cold"]["after_save"] = result["after_save"]["list_live"]
        for page in ("standings", "crosstable", "evaluation"):
            if page in result["pages_cold"]:
                result[page] = result["pages_cold"][page]
        print(json.dumps({**result, **extra}))
        return
    largest = max(sizes)
    sizes = sorted({s for figures in result["pages"].values() for s in figures}, key=int)
    print(f"{'page':<26}" + "".join(f"{s + ' cold':>12}{s + ' warm':>12}" for s in sizes)
          + "   (seconds, median)")
    nan = float("nan")
    for page, warm in result["pages"].items():
        cold = result["pages_cold"].get(page, {})
        print(f"{page:<26}" + "".join(f"{cold.get(s, nan):>12.3f}{warm.get(s, nan):>12.3f}" for s in sizes))
    for key in ("search", "after_save"):
        for page, figures in result[key].items():
            print(f"{key + ' ' + page:<26}" + "".join(f"{figures.get(s, nan):>12.3f}{'':>12}" for s in sizes))
    print(f"{'baseline (admin login)':<26}" + "".join(f"{result['baseline'].get(s, nan):>12.3f}{'':>12}"
                                                      for s in sizes))
    print(f"{'load average':<26}" + "".join(f"{result['load_average'].get(s, nan):>12.2f}{'':>12}"
                                            for s in sizes))
    for work, seconds in extra["timings"].items():
        print(f"{work:<26}{seconds:>10.2f} s at {largest}")
    if extra["officials_p95_s"] is not None:
        warm = ", warm processes" if args.officials_warm else ""
        print(f"{'officials p95':<26}{extra['officials_p95_s']:>10.3f} s (20 at once{warm})")
    for page, rate in extra["load"].items():
        base_rate = extra["load_baseline"].get(page)
        print(f"{'load ' + page:<26}{rate:>10.0f} req/s"
              + (f"  (baseline right after: {base_rate:.0f} req/s)" if base_rate is not None else ""))


if __name__ == "__main__":
    main()
