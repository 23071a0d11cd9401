"""Fuzz run of every importer: malformed files through the commands and the upload pages.

    .venv/bin/python benchmarks/fuzz_imports.py [--files 1000] [--seed 1]
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/fuzz_imports.py

Generates ``--files`` files per importer (tests/fuzzfiles.py: mutated small files of tests/data,
among them control characters, TRF fields shifted out of their columns and CSV rows with another
delimiter than the header; random bytes; member files above 1,000 rows with a control character,
which the page would import in the background) and sends each through the importer's command
and, where there is one, its upload page (preview, then confirmation) with Django's test client,
on a throw-away database (SQLite, or a test database next to the one DATABASE_URL names). Every
attempt is rolled back afterwards. Prints per importer: files, refusals, accepted, crashes (any
exception other than the documented refusal, or HTTP 500) and partial writes (row counts changed
by a refusal).
"""

import argparse
import logging
import os
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django():
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # illegal moves are refused

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    return connection


PAGES = {"members": "interchange:members_import", "pgn": "interchange:pgn_import",
         "trf": "interchange:trf_import", "ratings": "ratings:import", "national": "national_list:index"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="division,fide,members,national,pgn,rate_trf,ratings,trf")
    parser.add_argument("--split", action="store_true",
                        help="each file through the command or the page, by turns (half the time)")
    args = parser.parse_args()
    connection = setup_django()
    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management.base import CommandError
    from django.db import transaction
    from django.test import Client
    from django.urls import reverse
    from hypothesis import HealthCheck, given, seed
    from hypothesis import settings as hsettings

    from clubrating.core.errors import Refused
    from clubrating.interchange.formats.detect import sniff_format
    from clubrating.national_list.mapping import FIELDS
    from tests.factories import MemberFactory
    from tests.fuzzfiles import files, fuzz_world, import_command, row_counts
    from tests.ratings.factories import make_pool

    MemberFactory(last_name="Huber", first_name="Anna", national_id="AT1001", fide_id=1601001)
    fuzz_world()
    user = User.objects.create_user("fuzz", is_staff=True)
    for group in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP):
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    client = Client(raise_request_exception=True)
    client.force_login(user)
    tally: dict[str, Counter] = {}
    crashes: list[str] = []
    path = Path(tempfile.mkdtemp()) / "upload"

    def attempt(kind: str, where: str, run) -> None:
        counts = tally.setdefault(f"{kind} {where}", Counter())
        counts["files"] += 1
        with transaction.atomic():
            pool = make_pool(name="Fuzz")
            before = row_counts()
            try:
                outcome = run(pool)
            except (Refused, CommandError):
                outcome = "refused"
            except Exception:  # noqa: BLE001 - a crash is what this run counts
                crashes.append(f"{kind} {where}: {traceback.format_exc(limit=3)}")
                outcome = "crashes"
            if outcome == "refused" and row_counts() != before:
                counts["partial writes"] += 1
            counts[outcome] += 1
            transaction.set_rollback(True)

    def command(kind, raw):
        def run(pool):
            path.write_bytes(raw)
            import_command(kind, str(path), pool)
            return "accepted"
        attempt(kind, "command", run)

    def page(kind, raw):
        def run(pool):
            args_ = [pool.pk] if kind in ("trf", "ratings") else []
            url = reverse(PAGES[kind], args=args_)
            data = {"file": SimpleUploadedFile("upload.txt", raw)}
            if kind == "ratings":  # the format the command tells from the content
                data["kind"] = sniff_format(raw.decode("utf-8", errors="replace"))
            if kind == "national":  # upload with the list's date, then the columns as offered
                data["list_date"] = "1.10.2026"
                response = client.post(url, data)
                if response.status_code >= 500:
                    return "crashes"
                if response.status_code != 302:
                    return "refused"
                url = reverse("national_list:mapping")
                offered = client.get(url).context["form"].initial
                response = client.post(url, {name: offered.get(name, "") for name in FIELDS})
                url = reverse("national_list:apply")
            else:
                response = client.post(url, data)
            if response.status_code >= 500:
                return "crashes"
            if b'name="confirm"' not in response.content:
                return "refused"
            # Confirmed: the same service, this time kept (or refused because the data changed).
            before = row_counts()
            response = client.post(url, {"confirm": "1"})
            if response.status_code >= 500:
                return "crashes"
            return "accepted" if row_counts() != before or response.status_code == 200 else "refused"
        attempt(kind, "page", run)

    started = time.perf_counter()

    def report() -> None:
        print(f"database: {connection.vendor}, {time.perf_counter() - started:.0f} s")
        print(f"{'importer':<18} {'files':>6} {'refused':>8} {'accepted':>9} {'crashes':>8} {'partial':>8}")
        for name, counts in sorted(tally.items()):
            print(f"{name:<18} {counts['files']:>6} {counts['refused']:>8} {counts['accepted']:>9} "
                  f"{counts['crashes']:>8} {counts['partial writes']:>8}", flush=True)
    turn = [0]

    def fuzz(kind: str):
        @seed(args.seed)
        @hsettings(max_examples=args.files, deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))
        @given(raw=files(kind))
        def run(raw):
            turn[0] += 1
            if not (args.split and kind in PAGES and turn[0] % 2):
                command(kind, raw)
            if kind in PAGES and not (args.split and turn[0] % 2 == 0):
                page(kind, raw)

        run()

    for kind in args.kinds.split(","):
        fuzz(kind)
        report()  # so far
        for crash in crashes[:10]:
            print(crash, flush=True)
    connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)


if __name__ == "__main__":
    main()
