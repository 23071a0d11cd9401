"""Page times of a league division's public pages at the size of a full Bundesliga season:
12 teams × 11 rounds × 8 boards (66 matches, 528 board games), every round played.

    [DATABASE_URL=postgres://…] .venv/bin/python benchmarks/league_pages.py [--runs 9] [--json]

Without ``DATABASE_URL`` the division is built in a temporary SQLite file; with it, in the
database ``<name>_league`` (created when missing, the division reused when it is there). The
lineups go through the team competitions' lineup service (so the games are the real ones; the
roster rules are the league's own tests' business); the results are written straight into the
games and the matches marked confirmed (rounds 1-10; round 11 is lined up, not played), because
the pages read results, not how they were rated. One pool rates the division, with a start list
in force, so the players' page computes every Rp and the rounds page (round 11) every forecast.

Each page is requested through Django's test client at its real URL: ``cold`` is the first
request in the process (templates compiled, caches empty), ``warm`` the median of ``--runs``
requests after it; the CPU time of the warm requests is shown beside, and the load average of
the machine, since the figures are only comparable on a quiet one.
"""

from __future__ import annotations

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
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
TEAMS, BOARDS = 12, 8
SEASON = "Benchmark-Liga 2026/27"


def _database_url() -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{tempfile.mkdtemp(prefix='league-bench-')}/league.sqlite3"
    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_league"
    import psycopg

    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def _setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = _database_url()
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)


def _seed(rng: random.Random):
    """The division: 12 clubs with 10 players each, the schedule, lineups and results."""
    from django.utils import timezone

    from clubrating.clubs.models import Club, Member
    from clubrating.leagues import services
    from clubrating.leagues.models import Division, LeagueMatch, MatchStatus
    from clubrating.tournaments.models import Game, Result
    from clubrating.tournaments.services import lineup_set
    from ratings.services import pool_create
    from ratings.services.lists import EntryData, list_publish
    from ratings.services.pools import tournament_rate_in_pool

    existing = Division.objects.filter(season__name=SEASON).first()
    if existing is not None:
        return existing
    Club.objects.update_or_create(
        name="Schachklub Heimat",
        defaults={"short_name": "Heimat", "is_home": True, "public_tournaments": True},
    )
    season = services.season_create(name=SEASON, start_date=datetime.date(2025, 9, 1), fixing_games=3)
    division = services.division_create(season=season, name="1. Bundesliga", boards=BOARDS)
    pool = pool_create(name="Bench-Standard", rules="oesb-classic", start_date=datetime.date(2025, 1, 1))
    tournament_rate_in_pool(tournament=division.tournament, pool=pool)
    players, entries = {}, {}
    for number in range(1, TEAMS + 1):
        club = Club.objects.create(name=f"SK Benchmark {number:02d}", short_name=f"Bench {number:02d}")
        team = services.team_register(division=division, club=club, number=1)
        members = [
            Member.objects.create(club=club, first_name=f"Spieler{rank}", last_name=f"Bench{number:02d}")
            for rank in range(1, BOARDS + 3)
        ]
        services.roster_set(
            season=season, club=club, entries=[(m, team) for m in members], on=datetime.date(2025, 9, 1)
        )
        players[team.team_id] = members
        for rank, member in enumerate(members):
            entries[member.pk] = EntryData(rating=2400 - 40 * rank + rng.randint(-30, 30), games_count=50)
    list_publish(pool=pool, entries=entries, kind="start", valid_from=pool.start_date)
    dates = [datetime.date(2025, 9, 14) + datetime.timedelta(days=21 * n) for n in range(TEAMS - 1)]
    services.schedule_create(division=division, dates=dates)
    for league in LeagueMatch.objects.filter(match__round__tournament=division.tournament).select_related(
        "match__home_team__league_team", "match__away_team__league_team", "match__round"
    ):
        for team in (league.match.home_team, league.match.away_team):
            # Two of the ten sit out each round; the board order follows the roster.
            chosen = sorted(rng.sample(range(BOARDS + 2), BOARDS))
            lineup_set(match=league.match, team=team, members=[players[team.pk][i] for i in chosen])
    results = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.DRAW, Result.WHITE_WINS]
    games = list(Game.objects.filter(round__tournament=division.tournament, round__number__lt=TEAMS - 1))
    for game in games:
        game.result = rng.choice(results)
    Game.objects.bulk_update(games, ["result"])
    now = timezone.now()
    LeagueMatch.objects.filter(
        match__round__tournament=division.tournament, match__round__number__lt=TEAMS - 1
    ).update(status=MatchStatus.CONFIRMED, entered_at=now, confirmed_at=now)
    return division


def _time(client, url: str, runs: int) -> dict:
    start = time.perf_counter()
    response = client.get(url)
    cold = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    if hasattr(response, "streaming_content"):
        b"".join(response.streaming_content)
    from django.db import connection

    queries = []

    def counted(execute, sql, params, many, context):
        queries.append(sql)  # the test client's request resets Django's own query log
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {
        "cold_ms": round(cold * 1000, 1),
        "warm_ms": round(statistics.median(walls) * 1000, 1),
        "warm_cpu_ms": round(statistics.median(cpus) * 1000, 1),
        "queries": len(queries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--pdf", action="store_true", help="also the PDFs (WeasyPrint, not in the page budget)"
    )
    args = parser.parse_args()
    _setup_django()
    from django.test import Client
    from django.urls import reverse

    from clubrating.leagues.models import LeagueMatch

    seed_start = time.perf_counter()
    division = _seed(random.Random(2026))
    seeded = time.perf_counter() - seed_start
    match = LeagueMatch.objects.filter(match__round__tournament=division.tournament).order_by("-pk").first()
    pages = {
        "table": reverse("leagues:division", args=[division.pk]),
        "rounds": reverse("leagues:division_rounds", args=[division.pk]) + "?round=11",
        "players": reverse("leagues:division_players", args=[division.pk]),
        "match": reverse("leagues:public_match", args=[match.pk]),
        "match_report": reverse("leagues:match_report", args=[match.pk]),
        "print": reverse("leagues:division_print", args=[division.pk]),
        "csv": reverse("leagues:division_export", args=[division.pk, "csv"]),
        "xlsx": reverse("leagues:division_export", args=[division.pk, "xlsx"]),
        "trf": reverse("leagues:division_trf", args=[division.pk]),
    }
    if args.pdf:
        pages["report_pdf"] = pages["match_report"] + "?pdf=1"
        pages["table_pdf"] = pages["print"] + "?pdf=1"
    client = Client()
    figures = {name: _time(client, url, args.runs) for name, url in pages.items()}
    load = os.getloadavg()
    report = {
        "size": f"{TEAMS} teams × {TEAMS - 1} rounds × {BOARDS} boards",
        "database": os.environ["DATABASE_URL"].split(":", 1)[0],
        "seed_s": round(seeded, 1),
        "loadavg": [round(x, 2) for x in load],
        "pages": figures,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{report['size']} on {report['database']} (seeded in {report['seed_s']} s), "
        f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(f"{'page':<14}{'cold ms':>10}{'warm ms':>10}{'warm CPU ms':>13}{'queries':>9}")
    for name, f in figures.items():
        print(f"{name:<14}{f['cold_ms']:>10}{f['warm_ms']:>10}{f['warm_cpu_ms']:>13}{f['queries']:>9}")


if __name__ == "__main__":
    main()
