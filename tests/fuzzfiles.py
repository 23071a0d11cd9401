"""Malformed import files for the fuzz test and the fuzz benchmark: the small files of
tests/data, mutated (byte flips, truncation, NUL bytes, huge and absurd numbers, other encodings,
swapped delimiters and line endings), and random bytes."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

DATA = Path(__file__).resolve().parent / "data"


def _read(*names: str) -> list[bytes]:
    return [(DATA / name).read_bytes() for name in names]


SEEDS = {
    "trf": _read("gros-2010-r4.trf", "club-2025.trf"),
    "pgn": _read("club-games.pgn", "uzchess-cup-2025-6-games.pgn", "womens-world-rapid-2024-3-games.pgn"),
    "members": _read("members.csv"),
    "ratings": _read("ratings.csv", "club-2025.trf"),
}
SEEDS["rate_trf"] = SEEDS["trf"]

# Values that broke importers before: out of range, not a number, an impossible date.
TOKENS = [
    b"99999999999999999999", b"9999", b"99999", b"999999999", b"-1500", b"nan", b"inf", b"-inf",
    b"1e308", b"0000/00/00", b"2001/13/45", b"0", b"-1", b"1.5", b"\xd9\xa3", b"\xc2\xb2",
    b"9223372036854775808", b"x" * 300, b"\x00", b"\x1a", b'"', b";", b",", b"\t", b"\r", b"\n",
    b"\xff\xfe", b"\xef\xbb\xbf", "ü".encode("cp1252"), "ü".encode(), b"\x81\x8d",
]
_NUMBER = re.compile(rb"[0-9]+")


@st.composite
def mutated(draw, seeds: list[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _step in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(
            ["flip", "truncate", "insert", "number", "number", "delete", "line", "delimiters",
             "encoding", "endings"]))
        pos = draw(st.integers(0, len(data)))
        if op == "flip" and data:
            data[min(pos, len(data) - 1)] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            data = data[:pos]
        elif op == "insert":
            data[pos:pos] = draw(st.sampled_from(TOKENS) | st.binary(max_size=8))
        elif op == "number":
            numbers = list(_NUMBER.finditer(data))
            if numbers:
                found = numbers[draw(st.integers(0, len(numbers) - 1))]
                token = draw(st.sampled_from(TOKENS[:17]))
                if draw(st.booleans()):  # keep the fixed columns of TRF lines in place
                    token = token[: found.end() - found.start()].rjust(found.end() - found.start())
                data[found.start():found.end()] = token
        elif op == "delete":
            del data[pos:pos + draw(st.integers(1, 80))]
        elif op == "line":
            lines = bytes(data).split(b"\n")
            index = min(pos, len(lines) - 1)
            lines.insert(index, lines[draw(st.integers(0, len(lines) - 1))])
            data = bytearray(b"\n".join(lines))
        elif op == "delimiters":
            old, new = draw(st.permutations([b",", b";", b"\t"]))[:2]
            data = bytearray(bytes(data).replace(old, b"\x00#").replace(new, old).replace(b"\x00#", new))
        elif op == "encoding":
            text = bytes(data).decode("utf-8", "replace")
            encoding = draw(st.sampled_from(["utf-16", "utf-16-le", "cp1252", "latin-1", "utf-8-sig"]))
            data = bytearray(text.encode(encoding, "replace"))
        elif op == "endings":
            data = bytearray(bytes(data).replace(b"\r\n", b"\n").replace(b"\n", draw(
                st.sampled_from([b"\r", b"\r\n", b"\n\n"]))))
    return bytes(data)


def files(kind: str):
    """Files for one importer: mostly mutated seeds, some random bytes and tiny tables."""
    tiny_csv = st.lists(st.lists(st.sampled_from(
        [b"name", b"rating", b"id", b"games", b"last_name", b"first_name", b"birth_date", b"1500",
         b"-1", b"nan", b'"', b"Huber, Anna", b""] + TOKENS[:10]), min_size=1, max_size=6),
        min_size=1, max_size=5).map(lambda rows: b"\n".join(b";".join(r) for r in rows))
    return st.one_of(mutated(SEEDS[kind]), mutated(SEEDS[kind]), mutated(SEEDS[kind]),
                     st.binary(max_size=300), tiny_csv)


def row_counts() -> dict[str, int]:
    """Row counts of every table of the club apps and the ratings app."""
    from django.apps import apps

    return {
        model._meta.label: model.objects.count()
        for label in ("clubs", "tournaments", "ratings")
        for model in apps.get_app_config(label).get_models()
    }


def import_service(kind: str, text: str, pool=None) -> None:
    """Run the service behind one importer (``pool``: a new pool for starting lists and ratings)."""
    from django.db import transaction

    from clubrating.interchange.members_import import members_import_csv
    from clubrating.interchange.pgn_import import games_import_pgn
    from clubrating.interchange.trf_import import tournament_import_trf
    from ratings.services import ratings_import_list, tournament_ratings_update

    if kind == "trf":
        with transaction.atomic():
            report = tournament_import_trf(text=text)
            if pool is not None:
                tournament_ratings_update(tournament=report.tournament, pool=pool)
    elif kind == "pgn":
        games_import_pgn(text=text)
    elif kind == "members":
        members_import_csv(text=text)
    elif kind == "ratings":
        ratings_import_list(pool=pool, text=text)
    elif kind == "rate_trf":
        from clubrating.interchange.formats.trf import TrfError, parse_trf
        from clubrating.interchange.refusals import trf_refused
        from ratings.management.commands.rate_trf import period_data

        try:  # what the command reads, refused as the command refuses it
            period_data(parse_trf(text))
        except TrfError as error:
            raise trf_refused(error) from None
    else:
        raise ValueError(kind)


COMMANDS = {"trf": "import_trf", "pgn": "import_pgn", "members": "import_members",
            "ratings": "import_ratings", "rate_trf": "rate_trf"}


def import_command(kind: str, path: str, pool=None) -> None:
    from io import StringIO

    from django.core.management import call_command

    options = ["--pool", pool.name] if pool is not None and kind in ("trf", "ratings") else []
    call_command(COMMANDS[kind], path, *options, stdout=StringIO(), stderr=StringIO())
