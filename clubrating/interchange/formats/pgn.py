"""PGN game files (Portable Game Notation Specification and Implementation Guide), read as the
games import needs them.

The file is split into games here, not by ``chess.pgn`` alone: broadcast exports (lichess
studies) hold header-only games separated by blank lines, which ``read_game`` would merge.
Each game's movetext, if any, is parsed with ``chess`` and kept as SAN. Every stored header is
checked against the ranges of ``formats.limits``. A file the reader refuses raises ``PgnError``:
a code, the game and the parameters of an English message, marked for translation here and
translated by the services (``clubrating.interchange.refusals``), so that this module stays
pure Python.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import date

import chess.pgn

from .limits import (
    BOARDS_MAX,
    FIDE_ID_MAX,
    LENGTHS,
    RATING_MAX,
    ROUNDS_MAX,
    FieldError,
    check_date,
    check_length,
    check_text,
    gettext_noop,
    parse_rating,
    parse_whole,
)
from .names import split_name

__all__ = ["LABEL", "MESSAGES", "RESULTS", "PgnError", "PgnGame", "PgnPlayer", "playing_minutes",
           "read_pgn"]

RESULTS = ("1-0", "0-1", "1/2-1/2")  # a finished game's result; "*" is a game going on
_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TERMINATION = re.compile(r"(1-0|0-1|1/2-1/2|\*)\s*$")
_ROUND = re.compile(r"^\s*(\d+)(?:\.(\d+))?\s*$", re.ASCII)
_DATE = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})$", re.ASCII)
# The standard's date form (8.1.1.3): YYYY.MM.DD, each part question marks when not known.
_DATE_FORM = re.compile(r"^([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})$")
_UNKNOWN = ("", "?", "-", "0")  # what PGN writers put for an unknown rating or ID

LABEL = gettext_noop("Game %(number)d (line %(line)d, %(white)s – %(black)s)")
MESSAGES = {
    "moves_first": gettext_noop("Line %(line)d: moves before the first game's headers."),
    "header": gettext_noop("Line %(line)d: the header %(header)s is cut off or malformed."),
    "missing": gettext_noop("%(game)s: the %(header)s header is missing."),
    "result": gettext_noop("%(game)s: the result %(result)s is not a finished game's result."),
    "cut_off": gettext_noop(
        "%(game)s: the moves do not end with a result; the file seems to be cut off."),
    "ending": gettext_noop(
        "%(game)s: the moves end with %(end)s but the Result header says %(result)s."),
    "moves": gettext_noop("%(game)s: the moves cannot be read."),
    "illegal": gettext_noop("%(game)s: the move %(move)s is not allowed in this position."),
    "ambiguous": gettext_noop("%(game)s: the move %(move)s could be made by more than one piece."),
    "not_move": gettext_noop("%(game)s: %(move)s is not a move."),
    "round": gettext_noop("%(game)s: the round %(round)s is not a number like 3 or 3.1."),
    "value": gettext_noop("%(game)s: %(problem)s"),
    "self": gettext_noop("%(game)s: a player cannot play against herself or himself."),
    "empty": gettext_noop("The file holds no games."),
}


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class PgnPlayer:
    """One side of a game as its headers give it."""

    name: str  # "Last, First" with the spacing tidied
    fide_id: int | None = None
    rating: int | None = None  # the WhiteElo or BlackElo tag; None when unrated or unknown
    title: str = ""  # the WhiteTitle or BlackTitle tag as written

    @property
    def key(self) -> str:
        """The same player throughout a file: the FIDE ID, else the name (case ignored)."""
        return f"fide:{self.fide_id}" if self.fide_id else f"name:{self.name.casefold()}"


@dataclass
class PgnGame:
    number: int  # 1-based position in the file, for messages
    line_no: int
    headers: dict[str, str]
    moves: str = ""  # SAN without comments and variations; "" for a game without moves
    event: str = ""  # the Event tag, else the one of the game before (broadcast exports)
    round: int = 0
    board: int | None = None  # the ".n" of the Round tag
    date: date | None = None
    event_date: date | None = None  # the EventDate tag: the event's first day, not the game's
    result: str = ""  # one of RESULTS
    players: tuple[PgnPlayer, PgnPlayer] = field(default=(PgnPlayer(""), PgnPlayer("")))

    def label(self, gettext=_same) -> str:
        """``Game 3 (line 21, White – Black)`` through ``gettext`` (the identity for English)."""
        return gettext(LABEL) % {
            "number": self.number, "line": self.line_no,
            "white": self.headers.get("White", "?"), "black": self.headers.get("Black", "?"),
        }


class PgnError(ValueError):
    """A PGN file the reader refuses. ``line`` is 1-based (0 when the file as a whole is wrong);
    ``game`` is the game concerned, if any; ``problem`` a header value out of its range, or a
    control character in the text."""

    def __init__(self, code: str, *, line: int = 0, game: PgnGame | None = None,
                 problem: FieldError | None = None, **params):
        self.code = code
        self.line = line or (game.line_no if game else 0)
        self.game = game
        self.problem = problem
        self.params = params
        super().__init__(self.render())

    def render(self, gettext=_same, shown=_same) -> str:
        """The message through ``gettext`` (the identity for English); ``shown`` writes a value
        of the ``problem``. A control character reads as the ``problem`` alone."""
        values = {"line": self.line, **self.params}
        if self.game is not None:
            values["game"] = self.game.label(gettext)
        if self.problem is not None:
            values["problem"] = self.problem.render(gettext, shown)
            if self.game is None:
                return values["problem"]
        return gettext(MESSAGES[self.code]) % values

    def __str__(self) -> str:
        return str(self.problem) if self.problem is not None and self.game is None else self.render()


def read_pgn(text: str) -> list[PgnGame]:
    """Every game of ``text``, checked; PgnError at the first problem, in file order."""
    try:
        check_text(text)
    except FieldError as problem:
        raise PgnError("value", line=problem.line, problem=problem) from None
    games: list[PgnGame] = []
    previous_event = ""
    for number, (line_no, header_lines, move_lines) in enumerate(_split(text), start=1):
        game = _read_game(number, line_no, header_lines, " ".join(move_lines))
        # Broadcast exports put the Event header on the first game only.
        event = game.headers.get("Event", "").strip()
        game.event = previous_event = event if event and event != "?" else previous_event
        games.append(game)
    if not games:
        raise PgnError("empty")
    for game in games:
        if game.players[0].key == game.players[1].key:
            raise PgnError("self", game=game)
    return games


def _split(text: str) -> list[tuple[int, list[str], list[str]]]:
    """(first line number, header lines, movetext lines) per game."""
    games: list[tuple[int, list[str], list[str]]] = []
    in_moves = True
    for line_no, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("["):
            if in_moves:
                games.append((line_no, [], []))
                in_moves = False
            games[-1][1].append(line)
        elif line.startswith("%") or line.startswith(";"):
            continue  # escape and comment lines
        elif line:
            if not games:
                raise PgnError("moves_first", line=line_no)
            games[-1][2].append(line)
            in_moves = True
        elif games and games[-1][1]:
            in_moves = True  # a blank line ends the header block
    return games


def _read_game(number: int, line_no: int, header_lines: list[str], movetext: str) -> PgnGame:
    headers: dict[str, str] = {}
    for offset, line in enumerate(header_lines):
        match = _HEADER.match(line)
        if not match:
            raise PgnError("header", line=line_no + offset, header=line[:60])
        headers[match.group(1)] = match.group(2).replace('\\"', '"')
    game = PgnGame(number=number, line_no=line_no, headers=headers)
    for key in ("White", "Black", "Result"):
        if not headers.get(key, "").strip("? "):
            raise PgnError("missing", game=game, header=key)
    game.result = headers["Result"]
    if game.result not in RESULTS:
        raise PgnError("result", game=game, result=game.result)
    if movetext:
        game.moves = _moves(game, header_lines, movetext)
    round_match = _ROUND.match(headers.get("Round", ""))
    if not round_match:
        raise PgnError("round", game=game, round=headers.get("Round", ""))
    try:
        _check(headers, round_match)
    except FieldError as problem:
        raise PgnError("value", game=game, problem=problem) from None
    game.round = int(round_match.group(1))
    game.board = int(round_match.group(2)) if round_match.group(2) else None
    game.date = _parse_date(headers)
    game.event_date = _parse_date(headers, ("EventDate",))
    game.players = (_player(headers, "White"), _player(headers, "Black"))
    return game


def _moves(game: PgnGame, header_lines: list[str], movetext: str) -> str:
    """The movetext as SAN, once it ends with the game's result and every move is legal."""
    ending = _TERMINATION.search(movetext)
    if not ending:
        raise PgnError("cut_off", game=game)
    if ending.group(1) != game.result:
        raise PgnError("ending", game=game, end=ending.group(1), result=game.result)
    parsed = chess.pgn.read_game(io.StringIO("\n".join(header_lines) + "\n\n" + movetext))
    if parsed is None or parsed.errors:
        raise _move_error(game, parsed.errors[0] if parsed and parsed.errors else None)
    if parsed.next() is None:
        return ""
    return parsed.accept(chess.pgn.StringExporter(headers=False, variations=False, comments=False))


# python-chess's words for a move it refuses: "illegal san: 'Ke3' in <FEN>".
_SAN_ERROR = re.compile(r"^(illegal|ambiguous|invalid) san: '([^']*)'(?: in \S+ ([wb]) \S+ \S+ \d+ (\d+))?")
_SAN_CODES = {"illegal": "illegal", "ambiguous": "ambiguous", "invalid": "not_move"}


def _move_error(game: PgnGame, error: Exception | None) -> PgnError:
    """The move python-chess refuses, numbered as in the movetext ("2. Ke3", "5... Nf6"), in our
    words rather than the library's."""
    match = _SAN_ERROR.match(str(error or ""))
    if match is None:
        return PgnError("moves", game=game)
    kind, san, side, number = match.groups()
    move = san if side is None else f"{number}. {san}" if side == "w" else f"{number}... {san}"
    return PgnError(_SAN_CODES[kind], game=game, move=move[:40])


def _parse_date(headers: dict[str, str], keys=("Date", "UTCDate")) -> date | None:
    for key in keys:
        match = _DATE.match(headers.get(key, "").strip())
        if match:
            try:
                return date(*(int(g) for g in match.groups()))
            except ValueError:
                return None
    return None


def _check(headers: dict[str, str], round_match: re.Match) -> None:
    """The headers the import stores, each within the range and length of its field."""
    parse_whole(round_match.group(1), "Round", 1, ROUNDS_MAX)
    if round_match.group(2):
        parse_whole(round_match.group(2), "Round", 1, BOARDS_MAX)
    for side in ("White", "Black"):
        for part in split_name(headers[side]):
            check_length(part, side, LENGTHS["member_name"], literal=True)
        elo = headers.get(f"{side}Elo", "").strip()
        if elo not in _UNKNOWN:
            parse_whole(elo, f"{side}Elo", 0, RATING_MAX, literal=True)
            parse_rating(elo, f"{side}Elo", literal=True)
        fide = headers.get(f"{side}FideId", "").strip()
        if fide not in _UNKNOWN:
            parse_whole(fide, f"{side}FideId", 0, FIDE_ID_MAX, literal=True)
    check_length(headers.get("Event", "").strip(), "Event", LENGTHS["tournament_name"], literal=True)
    for key in ("Site", "TimeControl"):
        check_length(headers.get(key, ""), key, LENGTHS["place"], literal=True)
    for key in ("Date", "UTCDate", "EventDate"):
        value = headers.get(key, "").strip()
        if value not in ("", "?") and not _DATE_FORM.match(value):
            # Not "unknown" but a malformed date ("99999.01.01"): the file is wrong somewhere.
            raise FieldError("pgn_date", field=key, literal=True, value=value[:40])
        match = _DATE.match(value)
        if match:  # a complete date must be a real one ("2024.??.??" is a date not known)
            try:
                day = date(*(int(g) for g in match.groups()))
            except ValueError:
                raise FieldError("date", field=key, literal=True, value=headers[key]) from None
            check_date(day, key, literal=True)


def _player(headers: dict[str, str], side: str) -> PgnPlayer:
    """The side's player from headers ``_check`` accepted."""
    fide = headers.get(f"{side}FideId", "").strip()
    elo = headers.get(f"{side}Elo", "").strip()
    return PgnPlayer(
        name=", ".join(part for part in split_name(headers[side]) if part),
        fide_id=int(fide) if fide.isascii() and fide.isdigit() and int(fide) else None,
        rating=int(elo) or None if elo.isascii() and elo.isdigit() else None,
        title=headers.get(f"{side}Title", ""),
    )


def playing_minutes(control: str) -> float | None:
    """The minutes each player has for 60 moves (base time plus 60 increments, as the FIDE Laws
    of Chess count them for rapid and blitz) from a TimeControl tag: the standard's ``5400+30``
    or ``40/7200:1800`` (the first period), or words such as ``90 min + 30 s``. None when the
    tag says neither."""
    seconds = re.match(r"^(?:\d+/)?(\d+)(?:\+(\d+))?(?::.*)?$", control.strip())
    if seconds:
        return int(seconds.group(1)) / 60 + int(seconds.group(2) or 0)
    # Greedy up to the next digits: the increment, when seconds follow them.
    words = re.match(r"^\s*(\d+)\s*min\D*(?:(\d+)\s*s)?", control, re.IGNORECASE)
    if words:
        return int(words.group(1)) + int(words.group(2) or 0)
    return None
