"""Malformed import files for the fuzz test and the fuzz benchmark: the small files of
tests/data, mutated (byte flips, truncation, NUL bytes, huge and absurd numbers, other encodings,
swapped delimiters and line endings, TRF fields shifted out of their columns, CSV rows with
another delimiter than the header), random bytes, and member files longer than
``BACKGROUND_IMPORT_ROWS`` (1,000) with a control character, which the pages import in the
background."""

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
    "national": _read("national-list-at.csv"),
}
SEEDS["rate_trf"] = SEEDS["trf"]
SEEDS["division"] = _read("trf/landesliga-division.trf")
SEEDS["fide"] = _read("fide/players_list_foa.txt", "fide/players_list_xml_foa.xml")
# The league season a division file is imported into, and the clubs its teams belong to.
SEASON = "Landesliga Wien 2027/28"
CLUBS = ("Donaustadt", "Favoriten", "Floridsdorf", "Hietzing", "Meidling", "Ottakring")


def fuzz_world() -> None:
    """What the importers look up: the season a division file goes into and its teams' clubs."""
    import datetime

    from clubrating.clubs.models import Club
    from clubrating.leagues import services

    for name in CLUBS:
        Club.objects.get_or_create(short_name=name, defaults={"name": f"SK {name}"})
    services.season_create(name=SEASON, start_date=datetime.date(2026, 9, 1))

# Values that broke importers before: out of range, not a number, an impossible date.
TOKENS = [
    b"99999999999999999999", b"9999", b"99999", b"999999999", b"-1500", b"nan", b"inf", b"-inf",
    b"1e308", b"0000/00/00", b"2001/13/45", b"0", b"-1", b"1.5", b"\xd9\xa3", b"\xc2\xb2",
    b"9223372036854775808", b"x" * 300, b"\x00", b"\x1a", b'"', b";", b",", b"\t", b"\r", b"\n",
    b"\xff\xfe", b"\xef\xbb\xbf", "ü".encode("cp1252"), "ü".encode(), b"\x81\x8d",
]
_NUMBER = re.compile(rb"[0-9]+")
# C0 and C1 control characters (not tab and the line breaks) and DEL: refused wherever they are.
CONTROLS = [chr(c) for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)]]
# The blank columns between the fields of a TRF16 player line (0-based): start rank|sex, title|
# name, name|rating, rating|federation, federation|FIDE ID, FIDE ID|birth date, birth date|points,
# points|rank.
TRF_GAPS = [8, 13, 47, 52, 56, 68, 79, 84]


def shift_trf(data: bytes, line: int, gap: int, char: bytes, insert: bool) -> tuple[bytes, int] | None:
    """The player line ``line`` (an index among the ``001`` lines) with ``char`` in the blank
    column ``gap``: written over it, or inserted before it (the rest of the line shifted right, as
    a writer does with a value one character too long). (file, 1-based line number) or None for a
    file without player lines."""
    lines = data.split(b"\n")
    players = [n for n, text in enumerate(lines) if text.startswith(b"001")]
    if not players:
        return None
    index = players[line % len(players)]
    text = lines[index].rstrip(b"\r").ljust(91)
    text = text[:gap] + char + text[gap + (0 if insert else 1):]
    lines[index] = text
    return b"\n".join(lines), index + 1


def mix_delimiter(data: bytes, row: int, other: bytes) -> tuple[bytes, int] | None:
    """A CSV file with its data row ``row`` (an index among the data rows) separated by ``other``
    instead of the header's delimiter; (file, 1-based line number), None when the row holds no
    delimiter of the header or already holds ``other``."""
    lines = data.split(b"\n")
    header = lines[0]
    delimiter = max((b",", b";", b"\t"), key=header.count)
    rows = [n for n, text in enumerate(lines[1:], start=1) if text.strip()]
    if not rows:
        return None
    index = rows[row % len(rows)]
    if delimiter == other or other in lines[index] or delimiter not in lines[index]:
        return None
    lines[index] = lines[index].replace(delimiter, other)
    return b"\n".join(lines), index + 1


@st.composite
def long_members_file(draw, rows: int = 1200) -> tuple[bytes, int]:
    """A member file of ``rows`` rows (above ``BACKGROUND_IMPORT_ROWS``) with a control character
    on a random row, encoded as UTF-8 or as UTF-16 without byte order mark (whose ASCII letters
    read as NUL bytes); (file, the 1-based line of the first control character)."""
    header = SEEDS["members"][0].split(b"\n")[0].decode()
    lines = [header] + [f"Spieler{n};Max;m;01.01.1970;SK Fuzz;;;;;;" for n in range(rows)]
    if draw(st.booleans()):
        return "\n".join(lines).encode("utf-16-le"), 1
    line = draw(st.integers(1, rows))
    text = lines[line]
    at = draw(st.integers(0, len(text)))
    lines[line] = text[:at] + draw(st.sampled_from(CONTROLS)) + text[at:]
    return "\n".join(lines).encode(draw(st.sampled_from(["utf-8", "utf-8-sig"]))), line + 1


@st.composite
def mutated(draw, seeds: list[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _step in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(
            ["flip", "truncate", "insert", "number", "number", "delete", "line", "delimiters",
             "encoding", "endings", "control", "shift", "mixed"]))
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
        elif op == "control":
            text = bytes(data).decode("utf-8", "replace")
            at = min(pos, len(text))
            data = bytearray((text[:at] + draw(st.sampled_from(CONTROLS)) + text[at:]).encode())
        elif op == "shift":
            shifted = shift_trf(bytes(data), pos, draw(st.sampled_from(TRF_GAPS)),
                                draw(st.sampled_from([b"1", b"5", b"x", b".", b"/"])), draw(st.booleans()))
            data = bytearray(shifted[0]) if shifted else data
        elif op == "mixed":
            mixed = mix_delimiter(bytes(data), pos, draw(st.sampled_from([b",", b";", b"\t"])))
            data = bytearray(mixed[0]) if mixed else data
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
    strategies = [mutated(SEEDS[kind]), mutated(SEEDS[kind]), mutated(SEEDS[kind]),
                  st.binary(max_size=300), tiny_csv]
    if kind == "members":
        strategies.append(long_members_file().map(lambda made: made[0]))
    return st.one_of(*strategies)


def row_counts() -> dict[str, int]:
    """Row counts of every table of the club apps and the ratings app, in one query (the fuzz
    tests count before and after every example; their default managers filter no rows)."""
    from django.apps import apps
    from django.db import connection

    models = [model for label in ("clubs", "tournaments", "ratings", "national_list", "leagues", "federation")
              for model in apps.get_app_config(label).get_models()]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quote(model._meta.db_table)})"
                                             for model in models))
        counts = cursor.fetchone()
    return {model._meta.label: count for model, count in zip(models, counts, strict=True)}


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
    elif kind == "national":
        import datetime

        from clubrating.national_list.mapping import mapping_initial
        from clubrating.national_list.services import national_file_table, national_list_import

        columns = mapping_initial(national_file_table(text=text).columns)
        national_list_import(text=text, columns=columns, list_date=datetime.date(2026, 10, 1))
    elif kind == "rate_trf":
        from clubrating.interchange.formats.trf import TrfError, parse_trf
        from clubrating.interchange.refusals import trf_refused
        from ratings.management.commands.rate_trf import period_data

        try:  # what the command reads, refused as the command refuses it
            period_data(parse_trf(text))
        except TrfError as error:
            raise trf_refused(error) from None
    elif kind == "division":
        from clubrating.interchange.league_trf import division_import_trf
        from clubrating.leagues.models import LeagueSeason

        division_import_trf(season=LeagueSeason.objects.get(name=SEASON), name="Fuzz", text=text)
    elif kind == "fide":
        import datetime
        import tempfile

        from clubrating.federation.services import fide_list_import

        with tempfile.NamedTemporaryFile() as file:
            file.write(text.encode())
            file.flush()
            fide_list_import(path=file.name, month=datetime.date(2026, 11, 1), apply=True)
    else:
        raise ValueError(kind)


COMMANDS = {"trf": "import_trf", "pgn": "import_pgn", "members": "import_members",
            "ratings": "import_ratings", "rate_trf": "rate_trf", "national": "import_national_list",
            "division": "import_division_trf", "fide": "import_fide_list"}


def import_command(kind: str, path: str, pool=None) -> None:
    from io import StringIO

    from django.core.management import call_command

    options = ["--pool", pool.name] if pool is not None and kind in ("trf", "ratings") else []
    if kind == "national":
        options = ["--apply", "--date", "2026-10-01"]
    if kind == "fide":
        options = ["--apply", "--month", "2026-11"]
    arguments = [SEASON, "Fuzz", path] if kind == "division" else [path]
    call_command(COMMANDS[kind], *arguments, *options, stdout=StringIO(), stderr=StringIO())
