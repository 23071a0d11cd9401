"""FIDE's combined monthly rating list (standard, rapid, blitz), read as a stream.

FIDE publishes it as a zip holding either the fixed-width text file ``players_list_foa.txt``
(header ``ID Number  Name  Fed  Sex Tit  WTit  OTit  FOA  SRtng SGm SK RRtng RGm Rk BRtng BGm BK
B-day Flag``) or the XML file ``players_list_xml_foa.xml`` of the same content. About 1.8 million
players, some 200 MB unpacked: the reader never holds more than one chunk of the file in memory
(a line longer than ``LINE_MAX`` bytes, an XML text or tag that never ends, is refused) and
yields ``FidePlayerRow`` one by one. The text or XML file is also read gzip-compressed, and in
UTF-16 with a byte order mark; a text file's lines may end in LF, CRLF or CR.

The text file's columns are taken from its header line: FIDE's layout has shifted over the
years (wider name column, FOA titles added), and each value stands below its column name.
A value that is not what its column holds raises ``FieldError`` with the line and the file's own
column name; nothing is guessed.
"""

from __future__ import annotations

import codecs
import functools
import gzip
import io
import lzma
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

from .limits import (
    FIDE_ID_MAX,
    GAMES_MAX,
    RATING_MAX,
    RATING_MIN,
    FieldError,
    check_text,
    check_year,
    parse_rating,
    parse_whole,
)

__all__ = ["COLUMNS", "HEADER", "FidePlayerRow", "fide_list_line", "read_fide_list", "read_fide_list_path"]

# The text file's column names, in their order; the first three are required.
COLUMNS = ("ID Number", "Name", "Fed", "Sex", "Tit", "WTit", "OTit", "FOA", "SRtng", "SGm", "SK",
           "RRtng", "RGm", "Rk", "BRtng", "BGm", "BK", "B-day", "Flag")
REQUIRED = COLUMNS[:3]
# The XML file's element names -> the text file's columns.
XML_TAGS = {
    "fideid": "ID Number", "name": "Name", "country": "Fed", "sex": "Sex", "title": "Tit",
    "w_title": "WTit", "o_title": "OTit", "foa_title": "FOA", "rating": "SRtng", "games": "SGm",
    "k": "SK", "rapid_rating": "RRtng", "rapid_games": "RGm", "rapid_k": "Rk",
    "blitz_rating": "BRtng", "blitz_games": "BGm", "blitz_k": "BK", "birthday": "B-day", "flag": "Flag",
}
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
WOMEN_TITLES = ("WGM", "WIM", "WFM", "WCM")
FOA_TITLES = ("AGM", "AIM", "AFM", "ACM")
NAME_MAX = 200
OTHER_TITLES_MAX = 60
K_MAX = 100  # FIDE Rating Regulations: K is 10, 20 or 40 (a few older lists carry 15, 25, 30)
_FEDERATION = re.compile(r"[A-Z]{3}")
_FLAG = re.compile(r"[iw]{0,2}")
_CHUNK = 1 << 20
# FIDE's lines are some 200 bytes; a longer one is no line of the list (or the file's lines are
# not separated at all), and reading on would hold an unbounded "line" in memory.
LINE_MAX = 4096
# The text of one XML element, and the bytes the XML parser may hold before its next event.
XML_TEXT_MAX = 10_000
_XML_PENDING_MAX = 4 * _CHUNK
# C0 and C1 control characters and DEL (as ``limits.check_text``, which says where).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(slots=True)
class FidePlayerRow:
    """One player of the list; a rating, its games and K are None where the list has none."""

    line: int
    fide_id: int
    name: str
    federation: str
    sex: str  # "m", "f" or ""
    title: str
    women_title: str
    other_titles: str  # FIDE's comma-separated arbiter, trainer and organiser titles
    foa_title: str
    standard: int | None
    standard_games: int | None
    standard_k: int | None
    rapid: int | None
    rapid_games: int | None
    rapid_k: int | None
    blitz: int | None
    blitz_games: int | None
    blitz_k: int | None
    birth_year: int | None
    flag: str  # "i" inactive, "w" woman, "wi" both

    @property
    def inactive(self) -> bool:
        return "i" in self.flag


def _code(value: str, column: str, allowed: tuple[str, ...], line: int) -> str:
    if value and value not in allowed:
        raise FieldError("fide_code", field=column, literal=True, value=value[:40],
                         allowed=", ".join(allowed), line=line)
    return value


def _number(value: str, column: str, high: int, line: int) -> int | None:
    if not value:
        return None
    if value.isdigit() and value.isascii() and int(value) <= high:
        return int(value)
    return parse_whole(value, column, 0, high, line=line, literal=True)


def _rating(value: str, column: str, line: int) -> int | None:
    if not value:
        return None
    if value.isdigit() and value.isascii():
        rating = int(value)
        if rating == 0:
            return None
        if RATING_MIN <= rating <= RATING_MAX:
            return rating
    rating = parse_rating(value, column, line=line, literal=True)
    if rating is not None:  # a decimal rating: FIDE's ratings are whole numbers
        raise FieldError("not_number", field=column, literal=True, value=value[:40], line=line)
    return None


def _row(values: list[str], columns: tuple[str, ...], line: int) -> FidePlayerRow:
    """A player from the values of his line in the order of ``COLUMNS`` ("" where the file has
    no such column); ``columns`` are their names in the file (for the messages)."""
    (fide_id, name, federation, sex, title, women_title, other, foa, standard, standard_games,
     standard_k, rapid, rapid_games, rapid_k, blitz, blitz_games, blitz_k, born, flag) = values
    if fide_id.isdigit() and fide_id.isascii() and 0 < int(fide_id) <= FIDE_ID_MAX:
        fide_id = int(fide_id)
    else:
        fide_id = parse_whole(fide_id, columns[0], 1, FIDE_ID_MAX, line=line, literal=True)
    if "  " in name or "\t" in name:
        name = " ".join(name.split())
    if not name:
        raise FieldError("missing", field=columns[1], literal=True, line=line)
    if len(name) > NAME_MAX:
        raise FieldError("too_long", field=columns[1], literal=True, max=NAME_MAX, line=line)
    if not _FEDERATION.fullmatch(federation):
        if not federation:
            raise FieldError("missing", field=columns[2], literal=True, line=line)
        raise FieldError("fide_code", field=columns[2], literal=True, value=federation[:40],
                         allowed="AUT, GER, …", line=line)
    if len(other) > OTHER_TITLES_MAX:
        raise FieldError("too_long", field=columns[6], literal=True, max=OTHER_TITLES_MAX, line=line)
    if flag:
        flag = flag.lower()
        if not _FLAG.fullmatch(flag):
            raise FieldError("fide_code", field=columns[18], literal=True, value=flag[:40],
                             allowed="i, w, wi", line=line)
        flag = "".join(sorted(set(flag), reverse=True))
    birth_year = None
    if born and born.strip("0"):
        birth_year = parse_whole(born, columns[17], 0, 9999, line=line, literal=True)
        check_year(birth_year, columns[17], line=line, literal=True)
    return FidePlayerRow(
        line=line, fide_id=fide_id, name=name, federation=federation,
        sex=_code(sex.upper(), columns[3], ("M", "F"), line).lower() if sex else "",
        title=_code(title.upper(), columns[4], TITLES, line) if title else "",
        women_title=_code(women_title.upper(), columns[5], WOMEN_TITLES, line) if women_title else "",
        other_titles=other,
        foa_title=_code(foa.upper(), columns[7], FOA_TITLES, line) if foa else "",
        standard=_rating(standard, columns[8], line),
        standard_games=_number(standard_games, columns[9], GAMES_MAX, line),
        standard_k=_number(standard_k, columns[10], K_MAX, line),
        rapid=_rating(rapid, columns[11], line),
        rapid_games=_number(rapid_games, columns[12], GAMES_MAX, line),
        rapid_k=_number(rapid_k, columns[13], K_MAX, line),
        blitz=_rating(blitz, columns[14], line),
        blitz_games=_number(blitz_games, columns[15], GAMES_MAX, line),
        blitz_k=_number(blitz_k, columns[16], K_MAX, line),
        birth_year=birth_year, flag=flag,
    )


# ---- the fixed-width text file


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _header_spans(header: str) -> list[tuple[str, int, int | None]]:
    """(column, start, end) of every column the header names, from its position to the next."""
    found = []
    for column in COLUMNS:
        match = re.search(rf"(?<!\S){re.escape(column)}(?!\S)", header)
        if match is None:
            if column in REQUIRED:
                raise FieldError("fide_header", column=column, line=1)
            continue
        found.append((match.start(), column))
    found.sort()
    return [(column, start, found[i + 1][0] if i + 1 < len(found) else None)
            for i, (start, column) in enumerate(found)]


def _lines(stream: BinaryIO) -> Iterator[bytes]:
    """The stream's lines without their ends (LF, CRLF or a lone CR), split chunk by chunk;
    ``FieldError`` at a line longer than ``LINE_MAX`` bytes."""
    rest = b""
    number = 0
    after_cr = False  # the last chunk ended in CR: a LF starting the next one completes a CRLF
    while chunk := stream.read(_CHUNK):
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        data = rest + chunk
        lines = data.splitlines()
        after_cr = data.endswith(b"\r")
        # Without a line end the last piece goes on in the next chunk.
        rest = b"" if after_cr or data.endswith(b"\n") or not lines else lines.pop()
        if lines and max(map(len, lines)) > LINE_MAX:
            long = next(i for i, line in enumerate(lines) if len(line) > LINE_MAX)
            raise FieldError("fide_line", max=LINE_MAX, line=number + long + 1)
        number += len(lines)
        if len(rest) > LINE_MAX:
            raise FieldError("fide_line", max=LINE_MAX, line=number + 1)
        yield from lines
    if rest:
        yield rest


def _read_text(stream: BinaryIO) -> Iterator[FidePlayerRow]:
    lines = _lines(stream)
    header = ""
    line_no = 0
    for raw in lines:
        line_no += 1
        header = _decode(raw).lstrip("\ufeff")
        if header.strip():
            break
    if not header.strip():
        raise FieldError("empty", line=0)
    where = {column: (start, end) for column, start, end in _header_spans(header)}
    # Every column in the order of COLUMNS; one the file does not have reads as blank.
    spans = [where.get(column, (0, 0)) for column in COLUMNS]
    fed_start = where["Fed"][0]
    control = _CONTROL.search
    for raw in lines:
        line_no += 1
        text = raw.decode("ascii") if raw.isascii() else _decode(raw)
        if control(text):
            try:
                check_text(text)
            except FieldError as problem:
                problem.line = line_no
                raise
        if not text.strip():
            continue
        if not raw.isascii():
            # Names with letters beyond ASCII: FIDE pads the name column by characters; a file
            # padded by bytes (UTF-8) is read by bytes, where the federation stands then.
            fed = text[fed_start:fed_start + 3]
            if text[fed_start - 1:fed_start] != " " or not _FEDERATION.fullmatch(fed):
                if _FEDERATION.fullmatch(raw[fed_start:fed_start + 3].decode("latin-1")):
                    yield _row([_decode(raw[start:end]).strip() for start, end in spans], COLUMNS, line_no)
                    continue
        yield _row([text[start:end].strip() for start, end in spans], COLUMNS, line_no)


# The header of the list as FIDE writes it since 2023 (column positions; older lists differ).
HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit "
    "OTit                                             FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK "
    "B-day Flag"
)


@functools.lru_cache(maxsize=8)
def _layout(header: str) -> tuple[tuple[str, int, int | None], ...]:
    return tuple(_header_spans(header))


def fide_list_line(values: dict[str, object], header: str = HEADER) -> str:
    """A line of the text file: each value (by column name; None or missing is blank) starts
    below its column name, as in FIDE's file. For test files and benchmarks."""
    line = ""
    for column, start, end in _layout(header):
        value = values.get(column)
        text = "" if value is None else str(value)
        line = line.ljust(start) + (text.ljust(end - start) if end is not None else text)
    return line.rstrip()


# ---- the XML file


def _read_xml(stream: BinaryIO) -> Iterator[FidePlayerRow]:
    parser = expat.ParserCreate()
    done: list[FidePlayerRow] = []
    state = {"player": None, "tag": None, "line": 0, "text": [], "length": 0}
    tags = {column: tag for tag, column in XML_TAGS.items()}
    columns = tuple(tags[column] for column in COLUMNS)

    def start(tag, _attributes):
        if tag == "player":
            state["player"], state["line"], state["tag"] = {}, parser.CurrentLineNumber, None
        elif state["player"] is not None and tag in XML_TAGS:
            state["tag"], state["text"], state["length"] = tag, [], 0

    def end(tag):
        if tag == "player" and state["player"] is not None:
            values = state["player"]
            done.append(_row([values.get(column, "") for column in COLUMNS], columns, state["line"]))
            state["player"] = None
        elif state["tag"] == tag and state["player"] is not None:
            state["player"][XML_TAGS[tag]] = "".join(state["text"]).strip()
            state["tag"] = None

    def text(data):
        if state["tag"] is not None:
            state["length"] += len(data)
            if state["length"] > XML_TEXT_MAX:
                raise FieldError("too_long", field=state["tag"], literal=True, max=XML_TEXT_MAX,
                                 line=parser.CurrentLineNumber)
            state["text"].append(data)

    def entity(name, *_declaration):
        # FIDE's list declares no entities of its own; a file that does is refused rather than
        # expanded (or, an external one, silently left out of a name).
        raise FieldError("fide_entity", value=name[:40], line=parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.EntityDeclHandler = entity
    fed = 0
    try:
        while chunk := stream.read(_CHUNK):
            parser.Parse(chunk, False)
            fed += len(chunk)
            yield from done
            done.clear()
            # A tag, comment or declaration that never ends would be held whole by the parser.
            if fed - max(parser.CurrentByteIndex, 0) > _XML_PENDING_MAX:
                raise FieldError("fide_xml", line=parser.CurrentLineNumber,
                                 column=parser.CurrentColumnNumber + 1)
        parser.Parse(b"", True)
    except expat.ExpatError as error:
        raise FieldError("fide_xml", line=error.lineno, column=error.offset + 1) from None
    yield from done


# ---- compression, encodings and the choice of format

_ZIP = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")  # a member, an empty archive, a spanned one
_GZIP = b"\x1f\x8b"
_UTF16 = {codecs.BOM_UTF16_LE: "utf-16-le", codecs.BOM_UTF16_BE: "utf-16-be"}
# What a damaged archive raises while it is read: zipfile's and the decompressors' own errors.
_DAMAGED = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error, lzma.LZMAError,
            ValueError)
# An archive member that is encrypted ("password required") or packed by a method Python lacks.
_UNREADABLE = (NotImplementedError, RuntimeError)


class _Utf8:
    """A UTF-16 stream (its byte order mark dropped) read as UTF-8 bytes."""

    def __init__(self, stream: BinaryIO, encoding: str):
        self.text = codecs.getreader(encoding)(stream, errors="replace")

    def read(self, size: int = -1) -> bytes:
        return self.text.read(size).encode("utf-8")


def _sniff(stream: io.BufferedReader) -> str:
    start = stream.peek(512)[:512]
    if start.startswith(_ZIP):
        return "zip"
    if start.startswith(_GZIP):
        return "gzip"
    for bom, encoding in _UTF16.items():
        if start.startswith(bom):
            head = start[len(bom):len(bom) + 510 // 2 * 2].decode(encoding, errors="replace").lstrip()
            return "xml" if head.startswith("<") else encoding
    start = start.lstrip(b"\xef\xbb\xbf \t\r\n")
    return "xml" if start.startswith(b"<") else "text"


def _read_plain(stream: io.BufferedReader) -> Iterator[FidePlayerRow]:
    """The text or the XML file (an archive inside an archive is no list)."""
    kind = _sniff(stream)
    if kind == "xml":
        yield from _read_xml(stream)  # expat reads UTF-8 and UTF-16 by the byte order mark
    elif kind in _UTF16.values():
        stream.read(2)
        yield from _read_text(_Utf8(stream, kind))
    elif kind in ("zip", "gzip"):
        raise FieldError("fide_archive")
    else:
        yield from _read_text(stream)


def _read_zip(stream: io.BufferedReader) -> Iterator[FidePlayerRow]:
    try:
        archive = zipfile.ZipFile(stream)
    except _DAMAGED:
        raise FieldError("fide_zip") from None
    except _UNREADABLE:
        raise FieldError("fide_packed") from None
    with archive:
        names = [name for name in archive.namelist() if not name.endswith("/")]
        member = next((name for name in names if name.lower().endswith(".txt")), None) or next(
            (name for name in names if name.lower().endswith(".xml")), None)
        if member is None:
            raise FieldError("fide_archive")
        try:
            with archive.open(member) as inner:
                yield from _read_plain(io.BufferedReader(inner))
        except FieldError:
            raise
        except _DAMAGED:
            raise FieldError("fide_zip") from None
        except _UNREADABLE:
            raise FieldError("fide_packed") from None


def _read_gzip(stream: io.BufferedReader) -> Iterator[FidePlayerRow]:
    try:
        with gzip.GzipFile(fileobj=stream, mode="rb") as inner:
            yield from _read_plain(io.BufferedReader(inner))
    except FieldError:
        raise
    except _DAMAGED:
        raise FieldError("fide_gzip") from None


def read_fide_list(stream: BinaryIO) -> Iterator[FidePlayerRow]:
    """The players of a FIDE list given as a binary stream: a zip, the text file or the XML (or
    one of these two gzip-compressed). A zip is read from a seekable stream (a file)."""
    buffered = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(stream)
    kind = _sniff(buffered)
    if kind == "zip":
        yield from _read_zip(buffered)
    elif kind == "gzip":
        yield from _read_gzip(buffered)
    else:
        yield from _read_plain(buffered)


def read_fide_list_path(path: str | Path) -> Iterator[FidePlayerRow]:
    """As ``read_fide_list`` for a file; OSError when it cannot be opened."""
    with open(path, "rb") as stream:
        yield from read_fide_list(stream)
