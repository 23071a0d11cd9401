"""Admin changelist times at federation scale: the member list and the rating-record list.

    [DATABASE_URL=postgres://…] .venv/bin/python benchmarks/admin_bench.py [--size 20000] [--runs 5]

Uses the database of ``benchmarks/web_bench.py`` for the size (one ``oesb-2024`` pool with N
members and 10×N games; built when missing, reused otherwise) and requests, as a superuser, the
first page of each changelist through Django's test client: the median of ``--runs`` requests
after one warming request. Prints one line per page, or one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_bench import _median_time, _seed, _setup_django, _size_url  # noqa: E402

PAGES = {
    "admin_members": "/admin/clubs/member/",
    "admin_members_search": "/admin/clubs/member/?q=Spieler0",
    "admin_rating_records": "/admin/ratings/ratingrecord/",
    "admin_pool_members": "/admin/ratings/poolmember/",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    default = Path(tempfile.gettempdir()) / "clubrating-web.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    os.environ["DATABASE_URL"] = _size_url(base, args.size)
    _setup_django()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from clubrating.clubs.models import Member
    from ratings.models import RatingPool, RatingRecord

    if not RatingPool.objects.filter(name=f"Bench {args.size}").exists():
        t0 = time.perf_counter()
        _seed(args.size, random.Random(args.size))
        print(f"# seeded {args.size} members in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    admin, _created = get_user_model().objects.get_or_create(
        username="bench-admin", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(admin)
    figures = {page: _median_time(client, url, args.runs) for page, url in PAGES.items()}
    if args.json:
        print(json.dumps({"size": args.size, "members": Member.objects.count(),
                          "rating_records": RatingRecord.objects.count(), "pages": figures}))
        return
    print(f"{Member.objects.count()} members, {RatingRecord.objects.count()} rating records")
    for page, seconds in figures.items():
        print(f"{page:<22}{seconds:>8.3f} s (median of {args.runs})")


if __name__ == "__main__":
    main()
