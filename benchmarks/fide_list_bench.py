"""FIDE's monthly list at full size: 1.8 million players read, matched and applied for 20,000 members.

    [DATABASE_URL=postgres://…] .venv/bin/python benchmarks/fide_list_bench.py [--players 1800000]
        [--members 20000] [--text]

Builds once (and reuses) a synthetic list in FIDE's real layout (``players_list_foa.txt`` inside
a zip, as FIDE publishes it; ``--text`` for the unpacked text file) and a database with the
members: 90 % of them with a FIDE ID, of which 97 % are in the list; 40,000 players of Austria
(the site's federation) in all. Then, in a fresh process each, so that the peak resident size is
the import's own: the preview, the import, and the same import again (which changes nothing).
Prints wall time, CPU time and peak RSS of each step with the load average; the targets are
≤ 60 s for the import and ≤ 300 MB resident.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
AUSTRIANS = 40_000
FEDERATIONS = ("GER", "RUS", "IND", "ESP", "FRA", "ITA", "USA", "POL", "TUR", "IRI", "HUN", "CZE",
               "SRB", "NED", "ARG", "BRA", "SUI", "SVK", "CRO", "ENG")
FIRST = ("Anna", "Bernd", "Clara", "David", "Eva", "Felix", "Greta", "Hans", "Ida", "Jörg", "Zoë", "Łukasz")
LAST = ("Huber", "Gruber", "Müller", "Wagner", "Pichler", "Steiner", "Moser", "Mayer", "Hofer", "Đorđević",
        "García", "Nowak")


def _fide_id(i: int) -> int:
    return 1_000_000 + i * 7


def list_path(players: int, text: bool) -> Path:
    name = f"clubrating-fide-{players}.{'txt' if text else 'zip'}"
    return Path(tempfile.gettempdir()) / name


def build_list(path: Path, players: int, members: int, text: bool) -> None:
    """The first ``members * 0.9 * 0.97`` players are the members' FIDE IDs (Austrians); then
    more Austrians, then the world."""
    from clubrating.interchange.formats.fide_list import HEADER, fide_list_line

    rng = random.Random(players)
    tmp = path.with_suffix(".part")

    def lines():
        yield HEADER + "\n"
        for i in range(players):
            fed = "AUT" if i < AUSTRIANS else FEDERATIONS[i % len(FEDERATIONS)]
            woman = i % 6 == 0
            values = {
                "ID Number": _fide_id(i), "Name": f"{LAST[i % 12]}{i}, {FIRST[(i // 12) % 12]}", "Fed": fed,
                "Sex": "F" if woman else "M", "Tit": ("GM", "IM", "FM", "")[min(3, rng.randrange(40))],
                "WTit": "WFM" if woman and i % 50 == 0 else "", "OTit": "FA" if i % 500 == 0 else "",
                "SRtng": rng.randrange(1400, 2700) if i % 3 else None, "SGm": rng.randrange(0, 12),
                "SK": (10, 20, 40)[i % 3], "RRtng": rng.randrange(1400, 2600) if i % 4 == 0 else None,
                "RGm": 0, "Rk": 20, "BRtng": rng.randrange(1400, 2600) if i % 5 == 0 else None, "BGm": 0,
                "BK": 20, "B-day": 1940 + i % 70,
                "Flag": ("w" if woman else "") + ("i" if i % 3 == 0 else ""),
            }
            yield fide_list_line(values) + "\n"

    if text:
        with open(tmp, "w", encoding="utf-8") as out:
            out.writelines(lines())
    else:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            with archive.open("players_list_foa.txt", "w", force_zip64=True) as out:
                buffer = []
                for line in lines():
                    buffer.append(line)
                    if len(buffer) == 10_000:
                        out.write("".join(buffer).encode())
                        buffer.clear()
                out.write("".join(buffer).encode())
    tmp.replace(path)


def database_url(members: int) -> str:
    default = Path(tempfile.gettempdir()) / "clubrating-fide.sqlite3"
    base = os.environ.get("DATABASE_URL") or f"sqlite:///{default}"
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(base)
    if parts.scheme.startswith("sqlite"):
        path = Path(parts.path[1:] if parts.path.startswith("//") else parts.path)
        suffix = path.suffix or ".sqlite3"
        return f"sqlite:///{path.with_name(f'{path.stem}-{members}{suffix}')}"
    import psycopg

    name = f"{parts.path.lstrip('/') or 'postgres'}_fide{members}"
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("CLUBRATING_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")
    import django

    django.setup()


def seed(members: int) -> None:
    """``members`` members in 40 clubs; 90 % with a FIDE ID, 3 % of those not in the list. Their
    FIDE data are reset, so that every run's import changes the same members."""
    from django.core.management import call_command

    from clubrating.clubs.models import Club, Member
    from clubrating.federation.models import FideFollow, FideList, FidePlayer

    call_command("migrate", verbosity=0)
    if Member.objects.count() != members:
        Member.objects.all().delete()
        clubs = Club.objects.bulk_create([Club(name=f"SK Fide {i}") for i in range(40)])
        with_id = int(members * 0.9)
        listed = int(with_id * 0.97)
        Member.objects.bulk_create([
            Member(last_name=f"{LAST[i % 12]}{i}", first_name=FIRST[(i // 12) % 12], club=clubs[i % 40],
                   fide_id=(_fide_id(i) if i < listed else 900_000_000 + i) if i < with_id else None)
            for i in range(members)], batch_size=2000)
    Member.objects.update(fide_rating=None, fide_title="", federation="AUT")
    FideList.objects.all().delete()
    FidePlayer.objects.all().delete()
    FideFollow.objects.all().delete()


def measure(path: Path, step: str) -> dict:
    """One step in this (fresh) process."""
    import datetime

    from clubrating.federation.services import fide_list_import

    wall, cpu = time.perf_counter(), time.process_time()
    report = fide_list_import(path=path, month=datetime.date(2026, 11, 1), file_name=path.name,
                              apply=step != "preview")
    return {"step": step, "wall_s": round(time.perf_counter() - wall, 1),
            "cpu_s": round(time.process_time() - cpu, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "counts": report.counts()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_800_000)
    parser.add_argument("--members", type=int, default=20_000)
    parser.add_argument("--text", action="store_true", help="the unpacked text file instead of the zip")
    parser.add_argument("--step", choices=["preview", "import", "again"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    path = list_path(args.players, args.text)
    base = os.environ.get("DATABASE_URL", "")
    url = database_url(args.members)
    if args.step:
        setup_django(url)
        print(json.dumps(measure(path, args.step)))
        return
    if not path.exists():
        t0 = time.perf_counter()
        build_list(path, args.players, args.members, args.text)
        print(f"# built {path} ({path.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
    setup_django(url)
    seed(args.members)
    from django.db import connection

    print(f"{args.players} players ({path.name}, {path.stat().st_size / 1e6:.0f} MB), "
          f"{args.members} members, {connection.vendor}")
    for step in ("preview", "import", "again"):
        command = [sys.executable, __file__, "--players", str(args.players), "--members", str(args.members),
                   "--step", step] + (["--text"] if args.text else [])
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        if base:
            env["DATABASE_URL"] = base
        done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
        result = json.loads(done.stdout)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{step:<8} wall {result['wall_s']:>6.1f} s  cpu {result['cpu_s']:>6.1f} s  peak RSS "
              f"{result['peak_rss_mb']:>4} MB  load {load}  {result['counts']}")


if __name__ == "__main__":
    main()
