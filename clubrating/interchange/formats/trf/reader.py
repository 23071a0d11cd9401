"""FIDE TRF16 reader, tolerant of the quirks of real files.

Player lines (``001``) are read at the fixed TRF16 columns; where a real file deviates and
the meaning is still unambiguous (round columns shifted, comma decimals, dates in several
formats) we accept it, otherwise we raise ``TrfError`` with the line number. A value that runs
over its columns into the blank column between two fields is refused rather than cut to fit:
TRF16 gives every field its columns, so a shifted field would be read as a different value.
Every value is checked against the ranges of ``formats.limits`` and the pairings by
``trf.checks``, so that every reader of a file accepts and refuses the same files. Every
``TrfError`` carries its ``problem``: a ``FieldError`` with a code and the parameters of an
English message (``formats.limits.MESSAGES``), translated by the services.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..limits import (
    FIDE_ID_MAX,
    LENGTHS,
    POINTS_MAX,
    RATING_MAX,
    RATING_MIN,
    ROUNDS_MAX,
    START_RANK_MAX,
    FieldError,
    Label,
    check_date,
    check_length,
    check_text,
    check_year,
    parse_rating,
    parse_whole,
)
from ..text import read_text
from .checks import check_pairings
from .national import national_record

__all__ = ["TrfError", "TrfGame", "TrfPlayer", "TrfTournament", "parse_date", "parse_trf", "read_trf"]

PLAYED = frozenset("10=")
FORFEIT = frozenset("+-")
BYES = frozenset("HFUZ")
UNRATED_PLAYED = frozenset("WDL")
RESULT_CODES = PLAYED | FORFEIT | BYES | UNRATED_PLAYED
# Points a TRF result code is worth (TRF16: U = pairing-allocated bye, scored as a win).
CODE_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}
DUMMY_NAMES = frozenset({"spielfrei", "bye", "freilos", "free", "descansa", "exempt"})

ROUND_START = 91  # 0-based index of column 92, where round 1 begins
ROUND_WIDTH = 10
# The result may be blank (paired, not yet played), also in the last round where the line ends
# right after the colour.
_SLOT = re.compile(r"^\s*(\d{1,4})?\s+([wbWB\-])(?:\s+([10=+\-HFUZWDLhfuzwdl]))?\s*$", re.ASCII)
_TOKEN = re.compile(r"(\d{1,4})\s+([wbWB\-])\s+([10=+\-HFUZWDLhfuzwdl])", re.ASCII)
_DIGITS = re.compile(r"[0-9]+")


class TrfError(ValueError):
    """A malformed TRF file; ``line_no`` is 1-based (0 when the file as a whole is wrong).
    ``problem`` is the ``FieldError`` (code, field, parameters); ``message`` its English text."""

    def __init__(self, code: str, line_no: int = 0, *, field: str = "", **params):
        self._adopt(FieldError(code, field=field, line=line_no, **params))

    def _adopt(self, problem: FieldError) -> None:
        self.problem = problem
        self.line_no = problem.line
        self.message = problem.render(lambda text: text)
        ValueError.__init__(self, self.message, self.line_no)

    @classmethod
    def of(cls, problem: FieldError, line_no: int = 0) -> TrfError:
        problem.line = problem.line or line_no
        error = cls.__new__(cls)
        error._adopt(problem)
        return error

    def __str__(self) -> str:
        if self.line_no:
            return f"line {self.line_no}: {self.message}"
        return self.message


@dataclass
class TrfGame:
    round: int
    opponent: int | None
    colour: str  # "w", "b" or "-"
    result: str  # TRF code or "" (blank)

    @property
    def is_played(self) -> bool:
        """Played over the board with a rateable result (1/0/=) against a real opponent."""
        return self.opponent is not None and self.result in PLAYED

    @property
    def is_forfeit(self) -> bool:
        return self.result in FORFEIT

    @property
    def is_bye(self) -> bool:
        return self.result in BYES or (self.opponent is None and self.result != "")

    @property
    def points(self) -> float:
        return CODE_POINTS.get(self.result, 0.0)


@dataclass
class TrfPlayer:
    start_rank: int
    sex: str
    title: str
    name: str
    rating: int | None
    federation: str
    fide_id: int | None
    birth_year: int | None
    birth_date: date | None
    points: float
    rank: int | None
    results: list[TrfGame] = field(default_factory=list)
    line_no: int = 0
    raw_line: str = ""

    @property
    def is_dummy(self) -> bool:
        """The "spielfrei" pseudo player some programs add for the bye."""
        return self.name.strip().lower() in DUMMY_NAMES and self.rating is None


@dataclass
class TrfTournament:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    players_count: int | None = None
    rated_players_count: int | None = None
    teams_count: int | None = None
    kind: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: str = ""
    time_control: str = ""
    round_dates: list[date | None] = field(default_factory=list)
    rounds: int = 0
    declared_rounds: int | None = None  # JaVaFo's XXR line: the rounds planned
    players: list[TrfPlayer] = field(default_factory=list)
    extra_lines: list[str] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)

    def player(self, start_rank: int) -> TrfPlayer | None:
        for p in self.players:
            if p.start_rank == start_rank:
                return p
        return None


_DATE_PATTERNS = (
    (re.compile(r"^(\d{4})\s*[/.\-]\s*(\d{1,2})\s*[/.\-]\s*(\d{1,2})$", re.ASCII), ("y", "m", "d")),
    (re.compile(r"^(\d{1,2})\s*[/.\-]\s*(\d{1,2})\s*[/.\-]\s*(\d{4})$", re.ASCII), ("d", "m", "y")),
    # Two-digit years appear in 132 lines as yy/mm/dd (TRF16).
    (re.compile(r"^(\d{2})\s*[/.\-]\s*(\d{2})\s*[/.\-]\s*(\d{2})$", re.ASCII), ("y2", "m", "d")),
)


def parse_date(text: str) -> date | None:
    """Parse a TRF date; blank gives None, an unreadable date raises ValueError."""
    text = text.strip().rstrip(".")
    if not text:
        return None
    for pattern, order in _DATE_PATTERNS:
        match = pattern.match(text)
        if match:
            parts = dict(zip(order, (int(g) for g in match.groups())))
            year = parts["y"] if "y" in parts else 2000 + parts["y2"]  # year 0 is no date
            return date(year, parts["m"], parts["d"])
    raise ValueError(f"unreadable date {text!r}")


def _int_or_none(text: str) -> int | None:
    """ASCII digits or blank; ValueError for anything else (``int`` would take "1_000" or "٣")."""
    text = text.strip()
    if text and not _DIGITS.fullmatch(text):
        raise ValueError(text)
    return int(text) if text else None


def _parse_birth(text: str) -> tuple[int | None, date | None]:
    """(year, date); an empty or all-zero birth date (0000/00/00) is unknown: (None, None)."""
    text = text.strip()
    if not text or set(text) <= {"0", ".", "/", "-"}:
        return None, None
    if re.fullmatch(r"[0-9]{4}", text):
        return check_year(int(text), "birth year"), None
    birth = parse_date(text)
    if birth is not None:
        check_date(birth, "birth date")
    return (birth.year if birth else None), birth


def _parse_rounds(tail: str, line_no: int) -> list[TrfGame]:
    """Read the round columns; fixed 10-char slots first, a token scan when shifted."""
    slots = [tail[i : i + ROUND_WIDTH] for i in range(0, len(tail), ROUND_WIDTH)]
    games: list[TrfGame] = []
    strict = True
    for number, slot in enumerate(slots, start=1):
        if not slot.strip():
            games.append(TrfGame(number, None, "-", ""))
            continue
        match = _SLOT.match(slot)
        if not match:
            strict = False
            break
        opp, colour, result = match.groups()
        games.append(_game(number, opp, colour, result))
    if not strict:
        # A file whose round columns are shifted: accept it when the whole tail is a
        # clean sequence of "opponent colour result" tokens, nothing else.
        tokens = list(_TOKEN.finditer(tail))
        if not tokens or _TOKEN.sub("", tail).strip():
            raise TrfError("round_results", line_no, value=tail.strip()[:40])
        games = [_game(i, *m.groups()) for i, m in enumerate(tokens, start=1)]
    while games and games[-1].result == "" and games[-1].opponent is None:
        games.pop()
    return games


def _game(number: int, opp: str | None, colour: str, result: str | None) -> TrfGame:
    opponent = int(opp) if opp and int(opp) != 0 else None
    return TrfGame(number, opponent, colour.lower(), (result or "").upper())


# The fields of a player line before the rounds: (label, first column, last column), 1-based as
# TRF16 counts them. The columns between two fields are blank.
PLAYER_FIELDS = (
    ("start rank", 5, 8), ("sex", 10, 10), ("title", 11, 13), ("name", 15, 47), ("rating", 49, 52),
    ("federation", 54, 56), ("FIDE ID", 58, 68), ("birth date", 70, 79), ("points", 81, 84),
    ("rank", 86, 89),
)


def _columns(first: int, last: int) -> str:
    return f"{first}–{last}" if last > first else str(first)


def _check_columns(padded: str) -> None:
    """FieldError ``spill`` where a value reaches into the blank column between two fields (a
    12-digit FIDE ID, points 999.5): read at the fixed columns it would be cut to fit."""
    for (left, left_first, left_last), (right, right_first, right_last) in zip(
            PLAYER_FIELDS, PLAYER_FIELDS[1:]):
        for index in range(left_last, right_first - 1):  # 0-based index of the blank columns
            if padded[index] != " ":
                start = padded.rfind(" ", 0, index) + 1
                end = padded.find(" ", index)
                end = len(padded) if end < 0 else end
                raise FieldError(
                    "spill", field=left, column=index + 1, value=padded[start:end][:40],
                    left=Label(left), left_columns=_columns(left_first, left_last),
                    right=Label(right), right_columns=_columns(right_first, right_last))


def _parse_player(line: str, line_no: int) -> TrfPlayer:
    padded = line.ljust(ROUND_START)
    _check_columns(padded)
    rank_field = padded[4:8].strip()
    if not _DIGITS.fullmatch(rank_field.lstrip("-")):
        raise FieldError("not_number", field="start rank", value=rank_field)
    rating_text = padded[48:52].strip()
    if rating_text and not _DIGITS.fullmatch(rating_text):
        raise FieldError("rating", field="rating", value=rating_text, low=RATING_MIN, high=RATING_MAX)
    fide_text = padded[57:68].strip()
    if fide_text and not _DIGITS.fullmatch(fide_text):
        raise FieldError("not_number", field="FIDE ID", value=fide_text)
    try:
        birth_year, birth_date = _parse_birth(padded[69:79])
    except FieldError:
        raise
    except ValueError:
        raise FieldError("date", field="birth date", value=padded[69:79].strip()) from None
    points_text = padded[80:84].strip().replace(",", ".")
    if points_text and not re.fullmatch(r"[0-9]*\.?[0-9]+|[0-9]+\.", points_text):
        raise FieldError("not_decimal", field="points", value=padded[80:84].strip())
    points = float(points_text) if points_text else 0.0
    rank_text = padded[85:89].strip()
    if rank_text and not _DIGITS.fullmatch(rank_text):
        raise FieldError("not_number", field="rank", value=rank_text)
    rating = parse_rating(rating_text, "rating")
    if not padded[14:47].strip():
        raise FieldError("missing", field="name")
    if points > POINTS_MAX:
        raise FieldError("range", field="points", value=points_text, low=0, high=POINTS_MAX)
    player = TrfPlayer(
        start_rank=parse_whole(rank_field, "start rank", 1, START_RANK_MAX),
        sex=padded[9].strip().lower(),
        title=padded[10:13].strip(),
        name=padded[14:47].strip(),
        rating=int(rating) if rating else None,
        federation=padded[53:56].strip(),
        fide_id=parse_whole(fide_text, "FIDE ID", 0, FIDE_ID_MAX) or None if fide_text else None,
        birth_year=birth_year,
        birth_date=birth_date,
        points=points,
        rank=parse_whole(rank_text, "rank", 0, START_RANK_MAX) if rank_text else None,
        results=_parse_rounds(line[ROUND_START:].rstrip(), line_no),
        line_no=line_no,
        raw_line=line,
    )
    if len(player.results) > ROUNDS_MAX:
        raise FieldError("range", field="round", value=len(player.results), low=1, high=ROUNDS_MAX)
    return player


def _round_dates(value_line: str, line_no: int) -> list[date | None]:
    dates: list[date | None] = []
    for text in value_line[ROUND_START:].split():
        try:
            dates.append(parse_date(text))
        except ValueError:
            raise FieldError("date", field="round date", value=text[:40]) from None
        if dates[-1] is not None:
            check_date(dates[-1], "round date")
    if len(dates) > ROUNDS_MAX:
        raise FieldError("range", field="round", value=len(dates), low=1, high=ROUNDS_MAX)
    return dates


_HEADER_FIELDS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "092": "kind",
    "102": "chief_arbiter",
    "112": "deputy_arbiters",
    "122": "time_control",
}
_HEADER_INTS = {"062": "players_count", "072": "rated_players_count", "082": "teams_count"}
# Lengths of the fields the header values are stored in.
_HEADER_LENGTHS = {"012": ("tournament name", "tournament_name"), "022": ("place", "place"),
                   "032": ("federation", "federation"), "102": ("chief arbiter", "place"),
                   "122": ("time control", "place")}


def parse_trf(text: str) -> TrfTournament:
    """Parse and check a TRF16 document (any line endings)."""
    try:
        return _parse_trf(text)
    except FieldError as problem:
        raise TrfError.of(problem) from None


def _parse_trf(text: str) -> TrfTournament:
    text = text.lstrip("\ufeff")
    check_text(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tournament = TrfTournament()
    for line_no, line in enumerate(text.split("\n"), start=1):
        try:
            _parse_line(tournament, line, line_no)
        except FieldError as problem:
            raise TrfError.of(problem, line_no) from None
    if not tournament.players:
        raise TrfError("no_players")
    seen: dict[int, int] = {}  # start rank -> its line
    for player in tournament.players:
        if player.start_rank in seen:
            raise TrfError("twice", player.line_no, rank=player.start_rank, first=seen[player.start_rank])
        seen[player.start_rank] = player.line_no
    for player in tournament.players:
        for game in player.results:
            if game.opponent is not None and game.opponent not in seen:
                raise TrfError("no_opponent", player.line_no, round=game.round, opponent=game.opponent)
    check_pairings(tournament.players, tournament.declared_rounds)
    tournament.rounds = max(
        [len(tournament.round_dates)] + [len(p.results) for p in tournament.players]
    )
    return tournament


def _parse_line(tournament: TrfTournament, line: str, line_no: int) -> None:
    line = line.rstrip()
    if not line.strip():
        return
    code = line[:3]
    value = line[4:].strip()
    if code == "001":
        tournament.players.append(_parse_player(line, line_no))
    elif code in _HEADER_FIELDS:
        if code in _HEADER_LENGTHS:
            label, kind = _HEADER_LENGTHS[code]
            check_length(value, label, LENGTHS[kind])
        tournament.header[code] = value
        setattr(tournament, _HEADER_FIELDS[code], value)
    elif code in _HEADER_INTS:
        tournament.header[code] = value
        try:
            setattr(tournament, _HEADER_INTS[code], _int_or_none(value))
        except ValueError:
            raise FieldError("not_number", field=code, literal=True, value=value[:40]) from None
    elif code in ("042", "052"):
        tournament.header[code] = value
        try:
            parsed = parse_date(value)
        except ValueError:
            raise FieldError("date", field=code, literal=True, value=value[:40]) from None
        if parsed is not None:
            check_date(parsed, "start date" if code == "042" else "end date")
        setattr(tournament, "start_date" if code == "042" else "end_date", parsed)
    elif code == "132":
        tournament.header[code] = line[3:]
        tournament.round_dates = _round_dates(line, line_no)
    else:
        # JaVaFo XX lines, team lines (013), national rating lines and anything
        # else are kept verbatim so that a writer can reproduce them.
        national_record(line)  # checks a national rating line (TRF-2026)
        if code == "XXR" and tournament.declared_rounds is None:
            tournament.declared_rounds = parse_whole(
                (line[3:].split() or [""])[0], "XXR", 1, ROUNDS_MAX)
        tournament.extra_lines.append(line)


def read_trf(path: str | Path) -> TrfTournament:
    """Read a TRF file from disk (decoded as every uploaded file is); OSError when unreadable."""
    return parse_trf(read_text(path))
