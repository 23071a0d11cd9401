"""Page times of a big Swiss' pages (standings, crosstable, pairings, evaluation, progress table).

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/tournament_pages.py [--sizes 1000,20000] [--json]

``seed`` builds (or finds) a 300-player, 9-round Swiss in the current database the way a
tournament director would: members with a rating in a pool register, the app's pairing service
pairs each round (Dutch system) and every result goes through the rating service, so the
tournament is rated live in the pool's open period. ``benchmarks/web_bench.py`` calls it in
its per-size databases; run alone, this script uses the same databases (``<name>_web<N>``,
built by web_bench's seed when missing) and times each page through Django's test client:
``cold`` with the cache emptied before every request, ``after_save`` right after a result of the
last round was changed (cache emptied too), ``warm`` the same request repeated. Each figure is
the median of ``--runs`` requests, wall time and the process's CPU time (the database's own time
is the difference, roughly); the load average is printed beside them.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PAGES = ("standings", "crosstable", "pairings", "evaluation", "progress")


def _tournament_name(players: int, rounds: int) -> str:
    return f"Bench Swiss {players}×{rounds}"


def _pool_with_members(players: int, rng: random.Random):
    """The first standard pool with an open period and at least ``players`` rated members; in an
    empty database one is made (members in 20 clubs, a start list)."""
    from clubrating.clubs.models import Club, Member
    from clubrating.tournaments.models import GameCategory
    from ratings.models import PeriodState, PoolMember, RatingPool
    from ratings.services import pool_create
    from ratings.services.lists import EntryData, list_publish

    for pool in RatingPool.objects.filter(category=GameCategory.STANDARD).order_by("pk"):
        rated = PoolMember.objects.filter(pool=pool, rating__isnull=False).count()
        if rated >= players and pool.periods.filter(state=PeriodState.OPEN).exists():
            return pool
    clubs = Club.objects.bulk_create([Club(name=f"SK Swiss {i}") for i in range(20)])
    members = Member.objects.bulk_create([
        Member(first_name=f"Vorname{i}", last_name=f"Swiss{rng.randrange(10**6):06d}",
               birth_year=1950 + i % 60, sex="mf"[i % 5 == 0], club=clubs[i % len(clubs)])
        for i in range(players)
    ])
    start = datetime.date(2023, 1, 1)
    pool = pool_create(name="Bench Swiss pool", rules="oesb-2024", start_date=start)
    list_publish(pool=pool, valid_from=start, kind="start",
                 entries={m.pk: EntryData(rating=rng.randint(1000, 2400), games_count=rng.randint(20, 300))
                          for m in members})
    return pool


def _result(rng: random.Random, white: int, black: int) -> str:
    """A plausible result: the expected score by the rating difference, a third of the rest draws."""
    from clubrating.tournaments.models import Result

    expected = 1 / (1 + 10 ** ((black - white) / 400))
    roll = rng.random()
    draw = 0.3
    if roll < expected * (1 - draw):
        return Result.WHITE_WINS
    if roll < 1 - (1 - expected) * (1 - draw):
        return Result.DRAW
    return Result.BLACK_WINS


def _build(name: str, players: int, rounds: int, rng: random.Random, played: int | None = None):
    """The Swiss paired round by round by the app; ``played``: the rounds whose results are
    entered (all by default; the rest paired and waiting for their results)."""
    from clubrating.clubs.models import Member
    from clubrating.tournaments import services as tournament_services
    from clubrating.tournaments.models import Game, Tournament, TournamentKind, TournamentPlayer
    from clubrating.tournaments.recording import game_results_record
    from ratings.models import PeriodState, PoolMember
    from ratings.selectors import pool_ratings

    played = rounds if played is None else played
    pool = _pool_with_members(players, rng)
    period = pool.periods.get(state=PeriodState.OPEN)
    rated = sorted(PoolMember.objects.filter(pool=pool, rating__isnull=False)
                   .values_list("member_id", flat=True))
    chosen = rng.sample(rated, players)
    # The rounds lie in the open period, a day apart, so each result is rated at once.
    start = max(period.start, period.end - datetime.timedelta(days=rounds + 14))
    tournament = Tournament.objects.create(
        name=name, kind=TournamentKind.SWISS, start_date=start,
        end_date=start + datetime.timedelta(days=rounds - 1), rounds_count=rounds, round_interval_days=1,
        place="Wien", tiebreaks="BH/C1,BH,SB",
    )
    published = pool_ratings(pool, chosen)
    # Registered at once, then numbered by rating by the registration's own service (registering
    # one by one renumbers everybody after each entry).
    TournamentPlayer.objects.bulk_create([
        TournamentPlayer(tournament=tournament, member=member, rating=published[member.pk].published,
                         fide_rating=member.fide_rating)
        for member in Member.objects.filter(pk__in=chosen).order_by("pk")
    ])
    tournament_services.start_ranks_assign(tournament=tournament)
    rating_of = {m: r.published or 0 for m, r in published.items()}
    for number in range(1, rounds + 1):
        rnd = tournament_services.round_pair(tournament=tournament)
        games = list(Game.objects.filter(round=rnd).order_by("board"))
        results = [_result(rng, rating_of.get(g.white_id, 0), rating_of.get(g.black_id, 0)) for g in games]
        if number > played:
            continue  # paired, its results not entered yet
        # The round's results entered at once, as an import does: checked and rated as each
        # save would be, the pool's period evaluated once per round instead of once per board.
        game_results_record(games=games, results=[(result, None) for result in results])
    return tournament


def seed(*, players: int = 300, rounds: int = 9, rng) -> dict[str, str]:
    """The Swiss' page URLs {page name: URL}; the tournament is built first unless the database
    holds it finished already (one left unfinished by an interrupted run is built anew)."""
    from django.db import transaction
    from django.urls import reverse

    from clubrating.tournaments.models import Game, Result, Tournament

    name = _tournament_name(players, rounds)
    tournament = Tournament.objects.filter(name=name).order_by("pk").first()
    complete = tournament is not None and tournament.rounds.count() == rounds and not Game.objects.filter(
        round__tournament=tournament, result=Result.NOT_PLAYED).exists()
    if not complete:
        if tournament is not None:
            with transaction.atomic():
                tournament.delete()
        tournament = _build(name, players, rounds, rng)
    pk = tournament.pk
    return {
        "standings": reverse("tournaments:standings", args=[pk]),
        "crosstable": reverse("tournaments:crosstable", args=[pk]),
        "pairings": reverse("tournaments:round", args=[pk, rounds]),
        "evaluation": reverse("tournaments:evaluation", args=[pk]),
        "progress": _progress_url(pk),
    }


def _progress_url(pk: int) -> str:
    from django.urls import reverse

    return reverse("tournaments:progress", args=[pk])


# --- measuring --------------------------------------------------------------------------------------


def _timed(client, url: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, response bytes) of one request."""
    w0, c0 = time.perf_counter(), time.process_time()
    response = client.get(url)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    assert response.status_code == 200, (url, response.status_code)
    return wall, cpu, len(response.content)


def _save_one(rng: random.Random, name: str) -> None:
    """Change one result of the last round (and so every page's data), as an official would."""
    from clubrating.tournaments.models import Game, Result
    from ratings.services import game_record_result

    games = list(Game.objects.filter(round__tournament__name=name).order_by("-round__number", "board")[:20])
    game = rng.choice(games)
    choices = [r for r in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS) if r != game.result]
    game_record_result(game=game, result=rng.choice(choices), seen=game.result)


def measure(urls: dict[str, str], runs: int, rng: random.Random, name: str) -> dict[str, dict[str, float]]:
    """{"cold"|"after_save"|"warm"|"cpu_cold"|"kib": {page: value}} (seconds; KiB of HTML)."""
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    for url in urls.values():
        client.get(url)  # load the code and templates once: a server's worker has done so
    out: dict[str, dict[str, float]] = {"cold": {}, "cpu_cold": {}, "after_save": {}, "warm": {}, "kib": {}}
    for page, url in urls.items():
        cold, cpu, after = [], [], []
        for _run in range(runs):
            cache.clear()
            wall, used, size = _timed(client, url)
            cold.append(wall)
            cpu.append(used)
            _save_one(rng, name)
            cache.clear()
            after.append(_timed(client, url)[0])
        warm = [_timed(client, url)[0] for _run in range(runs)]
        out["cold"][page] = statistics.median(cold)
        out["cpu_cold"][page] = statistics.median(cpu)
        out["after_save"][page] = statistics.median(after)
        out["warm"][page] = statistics.median(warm)
        out["kib"][page] = round(size / 1024, 1)
        ms = {kind: 1000 * out[kind][page] for kind in ("cold", "cpu_cold", "after_save", "warm")}
        print(f"# {page:<11} cold {ms['cold']:6.0f} ms (CPU {ms['cpu_cold']:4.0f})  after save "
              f"{ms['after_save']:6.0f} ms  warm {ms['warm']:6.0f} ms  {out['kib'][page]:7.1f} KiB  "
              f"load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return out


def _one(size: int, runs: int) -> dict:
    import web_bench

    web_bench._setup_django()
    from ratings.models import RatingPool

    rng = random.Random(size)
    if not RatingPool.objects.filter(name=f"Bench {size}").exists():
        t0 = time.perf_counter()
        web_bench._seed(size, rng)
        print(f"# seeded {size} members in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    t0 = time.perf_counter()
    urls = seed(rng=rng)
    print(f"# the Swiss is ready after {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return measure(urls, runs, rng, _tournament_name(300, 9))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,20000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON object on standard output")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in a child process
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if args.one:
        print(json.dumps(_one(args.one, args.runs)))
        return
    import web_bench

    default = Path(web_bench.tempfile.gettempdir()) / "clubrating-web.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for size in [int(s) for s in args.sizes.split(",") if s]:
        env = {**os.environ, "DATABASE_URL": web_bench._size_url(base, size)}
        out = subprocess.run([sys.executable, __file__, "--one", str(size), "--runs", str(args.runs)],
                             env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        for kind, pages in json.loads(out.strip().splitlines()[-1]).items():
            for page, value in pages.items():
                figures.setdefault(kind, {}).setdefault(page, {})[str(size)] = round(value, 4)
    if args.json:
        print(json.dumps({**figures, "loadavg": os.getloadavg()[0]}))
        return
    sizes = sorted({s for pages in figures["cold"].values() for s in pages}, key=int)
    print(f"{'page':<12}" + "".join(f"{'cold ' + s:>12}{'saved ' + s:>12}{'warm ' + s:>12}" for s in sizes)
          + f"   (ms, median; load average {os.getloadavg()[0]:.2f})")
    for page in PAGES:
        print(f"{page:<12}" + "".join(
            f"{1000 * figures[k][page][s]:>12.0f}" for s in sizes for k in ("cold", "after_save", "warm")))


if __name__ == "__main__":
    main()
