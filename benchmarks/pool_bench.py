"""Federation-sized pool benchmark: recalculation, closing a period, recording a result.

    .venv/bin/python benchmarks/pool_bench.py [--members 20000] [--games 200000] [--periods 8]

Seeds a throw-away SQLite database (WAL, as in production), or the empty database of
``DATABASE_URL``, with members, 10 % of them newcomers,
and rated games spread over quarterly periods of an ``oesb-2024`` pool; then prints the time to
close each period, to recalculate the whole pool, and the median / 95th percentile of recording
one result through ``game_record_result``.
"""

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path


def setup_django(db_path: Path) -> None:
    """A throw-away SQLite file, or the (empty) database of ``DATABASE_URL`` when one is set."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{db_path}")
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seed(members: int, games: int, periods: int, rng: random.Random):
    from clubrating.clubs.models import Member
    from clubrating.tournaments.models import Game, Result, Round, Tournament
    from ratings.services import pool_create
    from ratings.services.evaluation import period_evaluate
    from ratings.services.lists import EntryData, list_publish
    from ratings.services.pools import open_period

    Member.objects.bulk_create(
        [
            Member(first_name=f"V{i}", last_name=f"Spieler{i}", birth_year=1950 + i % 60)
            for i in range(members)
        ],
        batch_size=2000,
    )
    ids = list(Member.objects.values_list("pk", flat=True))
    pool = pool_create(name="Bench", rules="oesb-2024", start_date=datetime.date(2023, 1, 1))
    newcomers = set(rng.sample(ids, members // 10))
    list_publish(
        pool=pool,
        valid_from=pool.start_date,
        kind="start",
        entries={
            m: EntryData(rating=rng.randint(1000, 2400), games_count=rng.randint(0, 300))
            for m in ids
            if m not in newcomers
        },
    )
    period_evaluate(pool, open_period(pool))

    tournaments_per_period, rounds = 10, 10
    boards = max(1, games // (periods * tournaments_per_period * rounds))
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for p in range(periods):
        start = datetime.date(2023 + p // 4, 3 * (p % 4) + 1, 1)
        for t in range(tournaments_per_period):
            tournament = Tournament.objects.create(
                name=f"T{p}-{t}",
                kind="swiss",
                start_date=start + datetime.timedelta(days=7 * t),
                rounds_count=rounds,
            )
            round_objs = Round.objects.bulk_create(
                [
                    Round(
                        tournament=tournament,
                        number=r + 1,
                        date=tournament.start_date + datetime.timedelta(days=r),
                    )
                    for r in range(rounds)
                ]
            )
            batch = []
            for rnd in round_objs:
                players = rng.sample(ids, 2 * boards)
                for b in range(boards):
                    result = rng.choice(results)
                    batch.append(
                        Game(
                            round=rnd,
                            board=b + 1,
                            white_id=players[2 * b],
                            black_id=players[2 * b + 1],
                            result=result,
                            rated_result=result,
                        )
                    )
            Game.objects.bulk_create(batch, batch_size=1000)
    return pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=20000)
    parser.add_argument("--games", type=int, default=200000)
    parser.add_argument("--periods", type=int, default=8)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        from django.db.models import F

        from clubrating.tournaments.models import Game, Result
        from ratings.models import PeriodState, RatingRecord
        from ratings.services import game_record_result, period_close, pool_recalculate

        t0 = time.perf_counter()
        pool = seed(args.members, args.games, args.periods, rng)
        print(
            f"seeded {args.members} members, {Game.objects.count()} games in {time.perf_counter() - t0:.1f} s"
        )

        t0 = time.perf_counter()
        pool_recalculate(pool=pool)  # first build: the open period evaluated, later games queued
        print(f"first build of records: {time.perf_counter() - t0:.1f} s")
        closes = []
        for _p in range(args.periods - 1):
            t0 = time.perf_counter()
            period_close(pool=pool)
            closes.append(time.perf_counter() - t0)
        print("close period: " + ", ".join(f"{c:.2f}" for c in closes) + f" s (max {max(closes):.2f} s)")

        t0 = time.perf_counter()
        count = pool_recalculate(pool=pool)
        print(
            f"recalculate whole pool ({count} records, {args.periods} periods): "
            f"{time.perf_counter() - t0:.1f} s"
        )

        from ratings.models import RatingPeriod
        from ratings.services import period_reopen

        latest = RatingPeriod.objects.filter(pool=pool, state=PeriodState.CLOSED).latest("start")
        t0 = time.perf_counter()
        period_reopen(period=latest, reason="benchmark")
        reopen = time.perf_counter() - t0
        t0 = time.perf_counter()
        period_close(pool=pool)
        print(f"reopen the latest period: {reopen:.2f} s, close it again: {time.perf_counter() - t0:.2f} s")

        open_games = list(
            Game.objects.filter(
                rating_records__period__state=PeriodState.OPEN,
                rating_records__white=True,
                # not a pending game carried from a closed period: those cannot change
                rating_records__played_on__gte=F("rating_records__period__start"),
            ).values_list("pk", flat=True)
        )
        timings = []
        results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.NOT_PLAYED]
        for pk in rng.sample(open_games, min(args.samples, len(open_games))):
            game = Game.objects.get(pk=pk)
            t0 = time.perf_counter()
            game_record_result(game=game, result=rng.choice(results))
            timings.append(time.perf_counter() - t0)
        timings.sort()
        p95 = timings[int(0.95 * (len(timings) - 1))]
        print(
            f"record one result ({len(timings)} samples): median {1000 * statistics.median(timings):.1f} ms, "
            f"p95 {1000 * p95:.1f} ms"
        )
        print(f"records now: {RatingRecord.objects.filter(pool=pool).count()}")


if __name__ == "__main__":
    main()
