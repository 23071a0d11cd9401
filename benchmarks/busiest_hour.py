"""Page times in a club's busiest hour: a 300-player Swiss running (its last round being entered),
another finished last month, a league division mid-season, and result saves between the requests.

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/busiest_hour.py [--sizes 1000,20000]
        [--runs 5] [--no-http] [--json] [--pages NAME,…] [--explain-only]

Each size uses ``web_bench.py``'s database of that size (N members, 10×N games; built when
missing, reused otherwise) and adds, once, what the hour needs: the 300-player Swiss of
``tournament_pages.py`` dated as finished last month, a second one dated as running today whose
last round has no results yet, and the league division of ``league_pages.py`` (12 teams × 11
rounds × 8 boards) moved so that its last round is next week. The tournaments' dates are moved,
not their rounds', so that their games stay in the pool's open period and every save is rated.

Every page is timed twice: through Django's test client in this process and through a real
server (gunicorn, 3 workers, DEBUG off, the documented defaults) over HTTP, both with the
production cache backend (the file cache, one folder shared by this process and the server, so
that a save here invalidates the server's pages as in production). Per page: *cold* (the cache
emptied first), *warm* (served again), *after a save* (an official's result saved in the running
Swiss just before the request: the live list, the Swiss' pages and the start page follow it) and,
through the server, the server's CPU per request (its workers and the PostgreSQL server processes
on this machine). Every figure comes with the bare baseline page (the admin login) of the same
run, as a ratio, and with the load average: on a shared machine only the ratios compare.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
BASELINE = "/admin/login/"
RUNNING, FINISHED = "Bench Swiss running", "Bench Swiss 300×9"
SMALL, SMALL_PLAYERS = "Bench Swiss running small", 30  # the EXPLAIN's second tournament size
# The club whose live list is timed: 60 rated members at every size. (web_bench.py spreads the
# pool over its 40 clubs, 2,500 members each at 100,000, where a real club keeps a few dozen:
# one club's list, its count and its order, would grow with the pool.)
CLUB, CLUB_MEMBERS = "SK Bench Dorf", 60


def _shape(size: int) -> dict:
    """Add what the busiest hour needs to this size's database (once) and return its objects."""
    import league_pages
    import tournament_pages
    import web_bench
    from django.utils import timezone

    from clubrating.clubs.models import Club
    from clubrating.leagues.models import Division, LeagueMatch
    from clubrating.tournaments.models import Round, Tournament
    from ratings.models import PublishedList, RatingPool

    pool = RatingPool.objects.filter(name=f"Bench {size}").first()
    if pool is None:
        t0 = time.perf_counter()
        pool = web_bench._seed(size, random.Random(size))
        print(f"# {size}: seeded in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    today = timezone.localdate()
    rng = random.Random(300)
    t0 = time.perf_counter()
    tournament_pages.seed(players=300, rounds=9, rng=rng)  # built when missing
    print(f"# {size}: finished Swiss ready in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    finished = Tournament.objects.get(name=FINISHED)
    last_month = today.replace(day=1) - datetime.timedelta(days=20)
    Tournament.objects.filter(pk=finished.pk).update(
        start_date=last_month - datetime.timedelta(days=8), end_date=last_month)
    running = Tournament.objects.filter(name=RUNNING).first()
    if running is None:
        t0 = time.perf_counter()
        running = tournament_pages._build(RUNNING, 300, 9, random.Random(301), played=8)
        print(f"# {size}: running Swiss built in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    small = Tournament.objects.filter(name=SMALL).first()
    if small is None:
        t0 = time.perf_counter()
        small = tournament_pages._build(SMALL, SMALL_PLAYERS, 9, random.Random(302), played=8)
        print(f"# {size}: small Swiss built in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    for t in (running, small):
        Tournament.objects.filter(pk=t.pk).update(
            start_date=today - datetime.timedelta(days=8), end_date=today + datetime.timedelta(days=1))
    if not Club.objects.filter(name=CLUB).exists():
        from clubrating.clubs.models import Member
        from ratings.models import PoolMember

        rated = list(PoolMember.objects.filter(pool=pool, live_rating__isnull=False)
                     .order_by("member_id").values_list("member_id", flat=True))
        village = Club.objects.create(name=CLUB)
        Member.objects.filter(pk__in=rated[::max(len(rated) // CLUB_MEMBERS, 1)][:CLUB_MEMBERS]).update(
            club=village)
    division = Division.objects.filter(season__name=league_pages.SEASON).first()
    if division is None:
        homes = list(Club.objects.filter(is_home=True).values_list("pk", flat=True))
        division = league_pages._seed(random.Random(12))
        # The league's seed makes a home club of its own: the database keeps the one it had (or
        # none: every page public, as web_bench.py measures them).
        Club.objects.exclude(pk__in=homes).filter(is_home=True).update(is_home=False)
        # Mid-season: its last round (lined up, not played) next week.
        last = Round.objects.get(tournament=division.tournament, number=league_pages.TEAMS - 1)
        shift = today + datetime.timedelta(days=7) - last.date
        for rnd in Round.objects.filter(tournament=division.tournament):
            Round.objects.filter(pk=rnd.pk).update(date=rnd.date + shift)
        for match in LeagueMatch.objects.filter(match__round__tournament=division.tournament):
            LeagueMatch.objects.filter(pk=match.pk).update(starts_at=match.starts_at + shift)
        t = division.tournament
        Tournament.objects.filter(pk=t.pk).update(
            start_date=t.start_date + shift, end_date=(t.end_date or t.start_date) + shift)
    plist = PublishedList.objects.filter(pool=pool, superseded=False).order_by("-pk").first()
    return {"pool": pool, "plist": plist, "running": running, "finished": finished, "division": division,
            "small": small}


def _urls(shaped: dict, running=None) -> dict[str, str]:
    """The pages {name: URL}; ``running``: the running Swiss whose pages are asked for (by
    default the 300-player one; the EXPLAIN asks for the small one's too)."""
    from django.urls import reverse

    from clubrating.clubs.models import Member

    pool, plist, finished = (shaped[k] for k in ("pool", "plist", "finished"))
    running = running or shaped["running"]
    division = shaped["division"]
    member = Member.objects.filter(registrations__tournament=running).order_by("pk").first()
    live = reverse("ratings:live", args=[pool.pk])
    club = CLUB
    return {
        "home": reverse("home"),
        "tournaments": reverse("tournaments:list"),
        "ratings": reverse("ratings:pool_list"),
        "list": reverse("ratings:list", args=[plist.pk]),
        "list_by_name": f"{reverse('ratings:list', args=[plist.pk])}?sort=name",
        "list_live": live,
        "list_live_by_name": f"{live}?sort=name",
        "list_live_u18": f"{live}?age=U18",
        "list_live_by_change": f"{live}?sort=-change",
        "list_live_club": f"{live}?{urlencode({'club': club})}",
        "members": reverse("clubs:member_list"),
        "member": member.get_absolute_url(),
        "swiss_standings": reverse("tournaments:standings", args=[running.pk]),
        "swiss_crosstable": reverse("tournaments:crosstable", args=[running.pk]),
        "swiss_progress": reverse("tournaments:progress", args=[running.pk]),
        "swiss_evaluation": reverse("tournaments:evaluation", args=[running.pk]),
        "swiss_pairings": reverse("tournaments:pairings", args=[running.pk]),
        "swiss_round": reverse("tournaments:round", args=[running.pk, 9]),
        "finished_standings": reverse("tournaments:standings", args=[finished.pk]),
        "league_table": reverse("leagues:division", args=[division.pk]),
        "league_rounds": reverse("leagues:division_rounds", args=[division.pk]),
        "league_players": reverse("leagues:division_players", args=[division.pk]),
    }


class Saver:
    """An official entering the running Swiss' last round: each call saves one board's result
    (another one than it holds) through the result service, as the result-entry view does."""

    def __init__(self, running) -> None:
        from clubrating.tournaments.models import Game

        self.games = list(Game.objects.filter(round__tournament=running, round__number=9).order_by("board"))
        self.rng = random.Random(9)
        self.cpu: list[float] = []

    def __call__(self) -> None:
        from clubrating.tournaments.models import Result
        from ratings.services import game_record_result

        game = self.rng.choice(self.games)
        game.refresh_from_db(fields=["result", "rated_result"])
        choices = [r for r in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.NOT_PLAYED)
                   if r != game.result]
        c0 = time.process_time()
        game_record_result(game=game, result=self.rng.choice(choices), seen=game.result)
        self.cpu.append(time.process_time() - c0)


def _client_times(urls: dict[str, str], runs: int, save) -> dict:
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    backend = _backend_pid()
    cpu_spent: list[float] = []

    def timed(url: str) -> float:
        """Wall seconds of one request; its CPU (this process and the database's backend
        process, steadier than wall time on a loaded machine) appended to ``cpu_spent``."""
        c0, b0, t0 = time.process_time(), _cpu([backend] if backend else []), time.perf_counter()
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        wall = time.perf_counter() - t0
        cpu_spent.append(time.process_time() - c0 + _cpu([backend] if backend else []) - b0)
        return wall

    for url in [BASELINE, *urls.values()]:
        timed(url)  # code, templates and translations loaded, as in a running server
    out: dict = {"cold": {}, "warm": {}, "after_save": {}, "cpu_cold": {}, "cpu_after_save": {}}
    for name, url in {"baseline": BASELINE, **urls}.items():
        cold, warm, after, cpu_cold, cpu_after = [], [], [], [], []
        for _run in range(runs):
            cache.clear()
            cold.append(timed(url))
            cpu_cold.append(cpu_spent[-1])
            warm.append(timed(url))
            save()
            after.append(timed(url))
            cpu_after.append(cpu_spent[-1])
        out["cold"][name] = statistics.median(cold)
        out["warm"][name] = statistics.median(warm)
        out["after_save"][name] = statistics.median(after)
        out["cpu_cold"][name] = statistics.median(cpu_cold)
        out["cpu_after_save"][name] = statistics.median(cpu_after)
    return out


def _backend_pid() -> int | None:
    """This connection's PostgreSQL backend process, when the server runs on this machine."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    return pid if Path(f"/proc/{pid}/stat").exists() else None


def _cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _postgres_pids() -> list[int]:
    """The PostgreSQL server processes of this connection's server, when it runs on this machine."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    try:
        parent = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return []
    return [parent, *_children(parent)]


def http_get_timed(base: str, path: str) -> float:
    """Seconds to fetch ``base + path`` whole (it must answer 200)."""
    t0 = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=120) as response:
        response.read()
        assert response.status == 200, (path, response.status)
    return time.perf_counter() - t0


def gunicorn_start(cache_dir: str) -> tuple[subprocess.Popen, str]:
    """gunicorn (3 workers, DEBUG off, the documented production settings, the file cache in
    ``cache_dir``) on a free port of 127.0.0.1, serving the database Django is connected to;
    returns the server process and its address."""
    import socket

    from django.db import connection

    s = connection.settings_dict
    url = f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:{s['PORT']}/{s['NAME']}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CLUBRATING_"))} | {
        "DATABASE_URL": url, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "bench-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0", "CLUBRATING_ENV_FILE": "/nonexistent/.env",
        "CLUBRATING_CACHE": "file", "CLUBRATING_CACHE_DIR": cache_dir,
    }
    python = sys.executable
    subprocess.run([python, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    server = subprocess.Popen([str(Path(python).with_name("gunicorn")), "clubrating.wsgi", "--bind",
                               f"127.0.0.1:{port}", "--workers", "3", "--log-level", "warning"],
                              cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    return server, base


def _server_times(urls: dict[str, str], runs: int, save, cache_dir: str) -> dict:
    """The same pages from gunicorn over HTTP: cold, warm, after a save, and the server's CPU
    (workers and PostgreSQL processes) per request of the warm and after-save runs."""
    import shutil

    from django.core.cache import cache

    server, base = gunicorn_start(cache_dir)

    timed = functools.partial(http_get_timed, base)

    out: dict = {"cold": {}, "warm": {}, "after_save": {}, "cpu": {}, "cpu_after_save": {}}
    try:
        for _attempt in range(150):
            try:
                timed(BASELINE)
                break
            except OSError:
                time.sleep(0.2)
        workers = _children(server.pid)
        pg = _postgres_pids()
        for _round in range(2):
            for path in [BASELINE, *urls.values()]:
                timed(path)  # every worker has loaded the pages' code
        for name, path in {"baseline": BASELINE, **urls}.items():
            cold, warm, after, cpu, cpu_after = [], [], [], [], []
            for _run in range(runs):
                cache.clear()
                cold.append(timed(path))
                c0 = _cpu(workers + pg)
                warm.append(timed(path))
                cpu.append(_cpu(workers + pg) - c0)
                save()
                c0 = _cpu(workers + pg)
                after.append(timed(path))
                cpu_after.append(_cpu(workers + pg) - c0)
            out["cold"][name] = statistics.median(cold)
            out["warm"][name] = statistics.median(warm)
            out["after_save"][name] = statistics.median(after)
            out["cpu"][name] = statistics.mean(cpu)
            out["cpu_after_save"][name] = statistics.mean(cpu_after)
            times = "  ".join(f"{kind} {out[kind][name]:.3f}" for kind in ("cold", "warm", "after_save"))
            print(f"# http {name:<20} {times} s  server CPU {1000 * out['cpu'][name]:.0f} / "
                  f"{1000 * out['cpu_after_save'][name]:.0f} ms  (load {os.getloadavg()[0]:.2f})",
                  file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=30)
    if shutil.which("wrk") is None:
        out["note"] = "wrk not installed: no rates"
    return out


def _ratios(figures: dict) -> dict:
    """Every figure as a multiple of the baseline page of the same kind and run."""
    return {kind: {name: round(seconds / values["baseline"], 1) for name, seconds in values.items()}
            for kind, values in figures.items() if isinstance(values, dict) and values.get("baseline")}


# The pages of the running Swiss: their queries' rows are compared between the 300-player Swiss
# and the small one (``SMALL``), so that a query whose rows grow faster than the tournament shows.
TOURNAMENT_PAGES = ("swiss_standings", "swiss_crosstable", "swiss_progress", "swiss_evaluation",
                    "swiss_pairings", "swiss_round")


def _rows_scanned(node: dict) -> int:
    """The table rows a plan node and its children read: every scan of a table (sequential, index,
    index-only, bitmap heap) counts the rows it returned and the rows its filter removed, times
    its loops (a nested loop's inner scan runs once per outer row)."""
    own = 0
    if "Relation Name" in node:
        own = (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
               + node.get("Rows Removed by Index Recheck", 0)) * node.get("Actual Loops", 1)
    return own + sum(_rows_scanned(child) for child in node.get("Plans", []))


def _seq_scans(node: dict) -> list[str]:
    own = [node["Relation Name"]] if node.get("Node Type") == "Seq Scan" else []
    return own + [name for child in node.get("Plans", []) for name in _seq_scans(child)]


def _explain_page(client, url: str) -> dict:
    """The page drawn cold (the cache emptied) and each of its reads run again under
    ``EXPLAIN (ANALYZE, FORMAT JSON)``: the rows they scanned, in all and the largest reads."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    # A UNION of reads starts with "(SELECT" on PostgreSQL.
    reads = [q["sql"] for q in captured.captured_queries
             if q["sql"].lstrip().lstrip("(")[:6].upper() == "SELECT"]
    scanned, largest, seq = 0, [], set()
    with connection.cursor() as cursor:
        for sql in reads:
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
            plan = cursor.fetchone()[0]
            plan = (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]
            rows = _rows_scanned(plan)
            scanned += rows
            largest.append((rows, sql[:160]))
            seq.update(_seq_scans(plan))
    largest.sort(key=lambda pair: -pair[0])
    return {"queries": len(captured.captured_queries), "reads": len(reads), "rows_scanned": scanned,
            "seq_scans": sorted(seq), "largest": [{"rows": r, "sql": q} for r, q in largest[:3]]}


def _explain(shaped: dict, urls: dict[str, str]) -> dict:
    """Per page its rows scanned (PostgreSQL only); the running Swiss' pages also for the small
    Swiss, flagged ``grows_with_tournament`` when their rows grow with the tournament's size
    (more than twice the small one's) and ``faster_than_tournament`` when they grow faster than
    its players (players × games joins)."""
    from django.db import connection
    from django.test import Client

    if connection.vendor != "postgresql":
        return {}
    client = Client()
    small = _urls(shaped, running=shaped["small"])
    players = shaped["running"].players.count() / max(1, shaped["small"].players.count())
    out = {}
    for name, url in {"baseline": BASELINE, **urls}.items():
        out[name] = _explain_page(client, url)
        if name in TOURNAMENT_PAGES:
            out[name]["small"] = _explain_page(client, small[name])
            big, little = out[name]["rows_scanned"], max(1, out[name]["small"]["rows_scanned"])
            out[name]["growth"] = round(big / little, 1)
            out[name]["players_ratio"] = round(players, 1)
            out[name]["grows_with_tournament"] = big > 2 * little
            out[name]["faster_than_tournament"] = big > 1.5 * players * little
    return out


def _chosen(urls: dict[str, str], pages: str | None) -> dict[str, str]:
    """The pages named in ``--pages`` (comma-separated; all when not given)."""
    if not pages:
        return urls
    names = [name for name in pages.split(",") if name]
    unknown = sorted(set(names) - set(urls))
    if unknown:
        raise SystemExit(f"unknown pages: {', '.join(unknown)} (known: {', '.join(urls)})")
    return {name: urls[name] for name in names}


def _one(size: int, runs: int, http: bool, pages: str | None = None,
         explain_only: bool = False) -> dict:
    import web_bench

    web_bench._setup_django()
    shaped = _shape(size)
    urls = _chosen(_urls(shaped), pages)
    if explain_only:
        return {"size": size, "load_average": [round(x, 2) for x in os.getloadavg()],
                "explain": _explain(shaped, urls)}
    save = Saver(shaped["running"])
    load_before = os.getloadavg()
    client = _client_times(urls, runs, save)
    out = {"size": size, "load_average": [round(x, 2) for x in load_before], "client": client,
           "client_ratio": _ratios(client)}
    ratio = out["client_ratio"]
    for name in client["cold"]:
        times = "".join(f" {kind} {client[kind][name]:.3f} s ({ratio[kind][name]}×)"
                        for kind in ("cold", "warm", "after_save"))
        times += f"  CPU cold {1000 * client['cpu_cold'][name]:.0f} ms, after a save " \
                 f"{1000 * client['cpu_after_save'][name]:.0f} ms"
        print(f"# {size:>6} {name:<20}{times}  (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
    if http:
        server = _server_times(urls, runs, save, os.environ["CLUBRATING_CACHE_DIR"])
        out["http"] = server
        out["http_ratio"] = _ratios({k: v for k, v in server.items() if k in ("cold", "warm", "after_save")})
    out["explain"] = _explain(shaped, urls)
    for name, figures in out["explain"].items():
        flag = (f" ×{figures['growth']} for ×{figures['players_ratio']} players"
                if figures.get("grows_with_tournament") else "")
        flag += " FASTER than the tournament" if figures.get("faster_than_tournament") else ""
        small = f" (small Swiss {figures['small']['rows_scanned']})" if "small" in figures else ""
        print(f"# {size:>6} EXPLAIN {name:<20} rows scanned {figures['rows_scanned']:>9}{small}{flag}",
              file=sys.stderr)
    out["save_cpu_ms"] = round(1000 * statistics.median(save.cpu), 1) if save.cpu else None
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


def _pg_tool(name: str) -> str:
    """A PostgreSQL client program: on the PATH, else Debian's PostgreSQL 15 folder."""
    import shutil

    return shutil.which(name) or f"/usr/lib/postgresql/15/bin/{name}"


def _database(base: str, size: int, cache_dir: Path) -> str:
    """The size's database: kept from an earlier run, else restored from its dump in
    ``cache_dir`` (written after the first run built it), else empty (built by the run)."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    import web_bench

    parts = urlsplit(base)
    name = f"{parts.path.lstrip('/') or 'postgres'}_web{size}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        existed = conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone() is not None
    url = web_bench._size_url(base, size)  # created when missing
    dump = cache_dir / f"busiest-{size}.dump"
    if not existed and dump.exists():
        t0 = time.perf_counter()
        subprocess.run([_pg_tool("pg_restore"), "--no-owner", "-j", "2", "-d", url, str(dump)], check=True)
        print(f"# {size}: restored from {dump} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return url


def _keep(url: str, size: int, cache_dir: Path) -> None:
    """Dump the size's database once it is built, for later runs (and other machines)."""
    dump = cache_dir / f"busiest-{size}.dump"
    if not dump.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        partial = dump.with_suffix(".partial")
        subprocess.run([_pg_tool("pg_dump"), "-Fc", "-f", str(partial), url], check=True)
        partial.rename(dump)
        print(f"# {size}: kept as {dump}", file=sys.stderr)


def _against_smallest(results: dict) -> dict:
    """Every page's figures at each size as a multiple of its cost at the smallest size: its
    time (``time``) and, steadier on a loaded machine, its multiple of the baseline page of the
    same run (``ratio``); and its rows scanned (``rows``), flagged when they more than double."""
    sizes = sorted(results, key=int)
    first = results[sizes[0]]
    out: dict = {}
    for size in sizes[1:]:
        now = results[size]
        per: dict = {}
        for via, ratio_key in (("client", "client_ratio"), ("http", "http_ratio")):
            if via not in now or via not in first:
                continue
            for kind, pages in now[via].items():
                if kind not in ("cold", "warm", "after_save", "cpu_cold", "cpu_after_save"):
                    continue
                for name, seconds in pages.items():
                    page = per.setdefault(name, {})
                    if name not in first[via].get(kind, {}):
                        continue
                    page[f"{via}_{kind}_time"] = round(seconds / max(1e-6, first[via][kind][name]), 2)
                    if kind in now[ratio_key]:
                        page[f"{via}_{kind}_ratio"] = round(
                            now[ratio_key][kind][name] / max(0.1, first[ratio_key][kind][name]), 2)
        for name, figures in now.get("explain", {}).items():
            before = first.get("explain", {}).get(name)
            if before:
                page = per.setdefault(name, {})
                page["rows"] = round(figures["rows_scanned"] / max(1, before["rows_scanned"]), 2)
                page["rows_grow_with_members"] = figures["rows_scanned"] > 2 * max(1, before["rows_scanned"])
        out[size] = per
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,20000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-http", action="store_true", help="the test client only, no gunicorn")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pages", help="only these pages, comma-separated (e.g. list,list_live,home)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--explain-only", action="store_true", help="only the pages' rows scanned, no timing")
    cache_home = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    parser.add_argument("--cache-dir", type=Path, default=cache_home / "clubrating-bench",
                        help="where the sizes' databases are kept as dumps (outside the repository)")
    parser.add_argument("--out", type=Path, help="also write the JSON to this file")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one, args.runs, not args.no_http, args.pages, args.explain_only)))
        return
    base = os.environ.get("DATABASE_URL")
    if not base or not base.startswith("postgres"):
        parser.error("DATABASE_URL=postgres://… is needed (the sizes' databases of web_bench.py)")
    results = {}
    for size in [int(s) for s in args.sizes.split(",") if s]:
        cache_dir = tempfile.mkdtemp(prefix="busiest-cache-")
        url = _database(base, size, args.cache_dir)
        env = {**os.environ, "DATABASE_URL": url, "CLUBRATING_CACHE": "file",
               "CLUBRATING_CACHE_DIR": cache_dir}
        out = subprocess.run([sys.executable, __file__, "--one", str(size), "--runs", str(args.runs),
                              *(["--no-http"] if args.no_http else []),
                              *(["--pages", args.pages] if args.pages else []),
                              *(["--explain-only"] if args.explain_only else [])],
                             env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        results[str(size)] = json.loads(out.strip().splitlines()[-1])
        _keep(url, size, args.cache_dir)
    if len(results) > 1:
        results["against_smallest"] = _against_smallest(results)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1))
    if args.json:
        print(json.dumps(results))
        return
    for size, out in results.items():
        if size == "against_smallest" or "client" not in out:
            continue
        print(f"{size} members (load {out['load_average']}): page, test client cold / warm / after a save "
              f"(× baseline){'; HTTP the same' if 'http' in out else ''}")
        for name in out["client"]["cold"]:
            line = "".join(f"  {out['client'][k][name]:.3f} ({out['client_ratio'][k][name]}×)"
                           for k in ("cold", "warm", "after_save"))
            if "http" in out:
                line += "   HTTP" + "".join(f"  {out['http'][k][name]:.3f} ({out['http_ratio'][k][name]}×)"
                                          for k in ("cold", "warm", "after_save"))
            print(f"  {name:<20}{line}")


if __name__ == "__main__":
    main()
