"""Page times of the public pages at federation scale (home, rating lists, exports, member page).

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/web_bench.py [--sizes 1000,5000,20000] [--json]

Each size gets its own database (``<name>_web<N>`` on PostgreSQL, ``<file>-web<N>.sqlite3`` on
SQLite, a temporary file without ``DATABASE_URL``) holding one ``oesb-2024`` pool with N members
and 10×N games: half in a closed period (so a period list with changes is published), half in
the open period (so the live list has changes). A database built before is reused. Pages are
requested through Django's test client at their real URLs; each figure is the median of
``--runs`` requests (the first, warming request is not counted). Every size runs in its own
process because Django binds to one database per process.
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
    if pdf:  # the whole list through WeasyPrint: once, it takes long
        cache.clear()
        t0 = time.perf_counter()
        assert client.get(reverse("ratings:list_pdf", args=[plist.pk])).status_code == 200
        figures["pdf"] = time.perf_counter() - t0
        print(f"# {size:>6} pdf               {figures['pdf']:.3f} s", file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON object on standard output")
    parser.add_argument("--pdf", action="store_true", help="also time the whole list's PDF (once)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in a child process
    args = parser.parse_args()
    if args.one:
        _setup_django()
        from django.core.cache import cache

        cache.clear()
        print(json.dumps(_measure(args.one, args.runs, args.pdf)))
        return

    default = Path(tempfile.gettempdir()) / "clubrating-web.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    pages: dict[str, dict[str, float]] = {page: {} for page in PAGES}
    for size in [int(s) for s in args.sizes.split(",") if s]:
        env = {**os.environ, "DATABASE_URL": _size_url(base, size)}
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--runs", str(args.runs),
             *(["--pdf"] if args.pdf else [])],
            env=env, check=True, stdout=subprocess.PIPE, text=True,
        ).stdout
        for page, seconds in json.loads(out.strip().splitlines()[-1]).items():
            pages.setdefault(page, {})[str(size)] = round(seconds, 4)
    if args.json:
        print(json.dumps({"pages": pages, "load": {}, "officials_p95_s": None}))
        return
    sizes = sorted({s for figures in pages.values() for s in figures}, key=int)
    print(f"{'page':<18}" + "".join(f"{s:>10}" for s in sizes) + "   (seconds, median)")
    for page, figures in pages.items():
        print(f"{page:<18}" + "".join(f"{figures.get(s, float('nan')):>10.3f}" for s in sizes))


if __name__ == "__main__":
    main()
