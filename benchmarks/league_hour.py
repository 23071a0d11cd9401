"""The league division's public pages in the busiest hour, alone: table, rounds, players, a
team's page and a match card, cold, warm and right after a league save, beside the baseline page.

    DATABASE_URL=postgres://…/<a database of busiest_hour.py> .venv/bin/python \
        benchmarks/league_hour.py --size 20000 [--runs 7] [--no-http] [--out FILE]

``busiest_hour.py`` times every page of the hour, the Swiss' too, which takes long on a shared
machine; this times only the league's, on a database it built (or restored from its dump), with
the same rules: the production cache backend (the file cache, one folder shared by this process
and the server), gunicorn with 3 workers, the admin login as the baseline page of the same run.
Per page: *cold* (the cache emptied), *warm* (again), *after a save* (a board result of the
division's round 10 changed through the result service just before, as a captain's correction:
the league's pages follow it). Beside each time the CPU it cost: this process's for the test
client; through the server, its workers' and the PostgreSQL server processes' on this machine.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
KINDS = ("cold", "warm", "after_save")


def _urls(size: int) -> dict[str, str]:
    import busiest_hour
    from django.urls import reverse

    from clubrating.leagues.models import LeagueMatch, LeagueTeam

    division = busiest_hour._shape(size)["division"]
    team = LeagueTeam.objects.filter(division=division).order_by("pk").first()
    match = (LeagueMatch.objects.filter(match__round__tournament=division.tournament)
             .order_by("match__round__number", "match__number").first())
    return {
        "baseline": busiest_hour.BASELINE,
        "league_table": reverse("leagues:division", args=[division.pk]),
        "league_rounds": reverse("leagues:division_rounds", args=[division.pk]),
        "league_players": reverse("leagues:division_players", args=[division.pk]),
        "league_team": reverse("leagues:division_team", args=[division.pk, team.pk]),
        "league_match": reverse("leagues:public_match", args=[match.pk]),
    }, division


class LeagueSaver:
    """A captain's correction: one board of the division's round 10 gets another result."""

    def __init__(self, division) -> None:
        from clubrating.tournaments.models import Game

        self.games = list(Game.objects.filter(team_match__round__tournament=division.tournament,
                                              team_match__round__number=10).order_by("pk"))
        self.rng = random.Random(10)

    def __call__(self) -> None:
        from clubrating.tournaments.models import Result
        from ratings.services import game_record_result

        game = self.rng.choice(self.games)
        game.refresh_from_db(fields=["result", "rated_result"])
        choices = [r for r in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS) if r != game.result]
        game_record_result(game=game, result=self.rng.choice(choices), seen=game.result)


def _client(urls: dict[str, str], runs: int, save) -> dict:
    from django.core.cache import cache
    from django.test import Client

    client = Client()

    def timed(url: str) -> tuple[float, float]:
        t0, c0 = time.perf_counter(), time.process_time()
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return time.perf_counter() - t0, time.process_time() - c0

    for url in urls.values():
        timed(url)
    out: dict = {kind: {} for kind in KINDS} | {f"{kind}_cpu": {} for kind in KINDS}
    for name, url in urls.items():
        got: dict[str, list] = {kind: [] for kind in KINDS}
        for _run in range(runs):
            cache.clear()
            got["cold"].append(timed(url))
            got["warm"].append(timed(url))
            save()
            got["after_save"].append(timed(url))
        for kind in KINDS:
            out[kind][name] = round(statistics.median(w for w, _c in got[kind]), 4)
            out[f"{kind}_cpu"][name] = round(statistics.median(c for _w, c in got[kind]), 4)
    return out


def _http(urls: dict[str, str], runs: int, save, cache_dir: str) -> dict:
    import busiest_hour
    from django.core.cache import cache

    server, base = busiest_hour.gunicorn_start(cache_dir)

    timed = functools.partial(busiest_hour.http_get_timed, base)

    out: dict = {kind: {} for kind in KINDS} | {f"{kind}_cpu": {} for kind in KINDS}
    try:
        for _attempt in range(150):
            try:
                timed(urls["baseline"])
                break
            except OSError:
                time.sleep(0.2)
        processes = busiest_hour._children(server.pid) + busiest_hour._postgres_pids()
        for _round in range(2):
            for path in urls.values():
                timed(path)  # every worker has loaded the pages' code
        for name, path in urls.items():
            got: dict[str, list] = {kind: [] for kind in KINDS}
            for _run in range(runs):
                for kind in KINDS:
                    if kind == "cold":
                        cache.clear()
                    elif kind == "after_save":
                        save()
                    c0 = busiest_hour._cpu(processes)
                    wall = timed(path)
                    got[kind].append((wall, busiest_hour._cpu(processes) - c0))
            for kind in KINDS:
                out[kind][name] = round(statistics.median(w for w, _c in got[kind]), 4)
                out[f"{kind}_cpu"][name] = round(statistics.mean(c for _w, c in got[kind]), 4)
            shown = [f"{kind} {out[kind][name]:.3f} s (CPU {1000 * out[f'{kind}_cpu'][name]:.0f} ms)"
                     for kind in KINDS]
            load = os.getloadavg()[0]
            print(f"# http {name:<16} " + "  ".join(shown) + f"  (load {load:.2f})", file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return out


def _ratios(figures: dict) -> dict:
    return {kind: {name: round(value / pages["baseline"], 1) for name, value in pages.items()}
            for kind, pages in figures.items() if pages.get("baseline")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True, help="the members of busiest_hour.py's database")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        parser.error("DATABASE_URL=postgres://… of busiest_hour.py's database is needed")
    cache_dir = tempfile.mkdtemp(prefix="league-hour-cache-")
    os.environ.update({"CLUBRATING_CACHE": "file", "CLUBRATING_CACHE_DIR": cache_dir})
    import web_bench

    web_bench._setup_django()
    urls, division = _urls(args.size)
    save = LeagueSaver(division)
    out: dict = {"size": args.size, "load_average": [round(x, 2) for x in os.getloadavg()]}
    out["client"] = _client(urls, args.runs, save)
    out["client_ratio"] = _ratios(out["client"])
    for name in urls:
        client, ratio = out["client"], out["client_ratio"]
        shown = [f"{kind} {client[kind][name]:.3f} s (CPU {1000 * client[f'{kind}_cpu'][name]:.0f} ms,"
                 f" {ratio[kind][name]}×)" for kind in KINDS]
        print(f"# client {name:<16} " + "  ".join(shown), file=sys.stderr)
    if not args.no_http:
        out["http"] = _http(urls, args.runs, save, cache_dir)
        out["http_ratio"] = _ratios(out["http"])
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(out, indent=1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
