"""FIDE TRF16 writer: the inverse of the reader.

Columns follow the TRF16 handbook (C04 Annex 2): player lines ``001`` with the start rank in
columns 5-8, sex 10, title 11-13, name 15-47, rating 49-52, federation 54-56, FIDE id 58-68,
birth date 70-79, points 81-84, rank 86-89, and ten columns per round from column 92
(opponent 4 digits, colour, result code). Unknown values are left blank, which TRF16 defines
as "not given" (a blank round is equivalent to ``0000 - Z``).
"""

from __future__ import annotations

import re
from datetime import date

from .reader import ROUND_START, ROUND_WIDTH, TrfGame, TrfPlayer, TrfTournament

__all__ = ["format_player_line", "one_line", "write_trf"]

# Header tags in the order TRF16 lists them, with the tournament attribute each one holds.
_TEXT_HEADERS = (
    ("012", "name"),
    ("022", "city"),
    ("032", "federation"),
)
_COUNT_HEADERS = (
    ("062", "players_count"),
    ("072", "rated_players_count"),
    ("082", "teams_count"),
)


# Line breaks and the other C0 and C1 control characters (but tab) and DEL.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """A typed text (a name, a place) as one field of one line: a control character or line break
    in it becomes a space, so that it can never start a record of its own."""
    return _CONTROL.sub(" ", text)


def _date(value: date | None) -> str:
    return value.strftime("%Y/%m/%d") if value else ""


def _header(tag: str, value: object) -> str:
    text = "" if value is None else one_line(str(value))
    return f"{tag} {text}".rstrip()


def _birth(player: TrfPlayer) -> str:
    if player.birth_date:
        return _date(player.birth_date)
    return str(player.birth_year) if player.birth_year else ""


def _slot(game: TrfGame) -> str:
    opponent = f"{game.opponent:>4}" if game.opponent else "0000"
    colour = game.colour if game.colour in ("w", "b") else "-"
    if game.opponent is None and game.result == "":
        return " " * ROUND_WIDTH  # blank: not paired, TRF16 reads it as Z
    return f"{opponent} {colour} {game.result or ' '}".ljust(ROUND_WIDTH)


def format_player_line(player: TrfPlayer) -> str:
    """One ``001`` line, trailing blanks removed."""
    fixed = (
        f"001 {player.start_rank:>4} {(player.sex or '')[:1]:1}{(player.title or '')[:3]:>3} "
        f"{one_line(player.name)[:33]:<33} {player.rating or '':>4} "
        f"{one_line(player.federation or '')[:3]:<3} "
        f"{player.fide_id or '':>11} {_birth(player):<10} {player.points:>4.1f} "
        f"{player.rank if player.rank is not None else '':>4}"
    ).ljust(ROUND_START)
    slots = {game.round: _slot(game) for game in player.results}
    rounds = max(slots, default=0)
    tail = "".join(slots.get(number, " " * ROUND_WIDTH) for number in range(1, rounds + 1))
    return (fixed + tail).rstrip()


def _round_dates_line(dates: list[date | None]) -> str:
    cells = [(d.strftime("%y/%m/%d") if d else "").ljust(ROUND_WIDTH) for d in dates]
    return ("132".ljust(ROUND_START) + "".join(cells)).rstrip()


def write_trf(tournament: TrfTournament, *, newline: str = "\n") -> str:
    """The TRF16 text of ``tournament``; players in start-rank order, extra lines kept last.

    ``extra_lines`` (JaVaFo ``XX?`` lines, national rating lines, team lines) are written
    verbatim, so reading a file and writing it again keeps them.
    """
    lines = [_header(tag, getattr(tournament, attr)) for tag, attr in _TEXT_HEADERS]
    lines.append(_header("042", _date(tournament.start_date)))
    lines.append(_header("052", _date(tournament.end_date)))
    lines += [_header(tag, getattr(tournament, attr)) for tag, attr in _COUNT_HEADERS]
    lines.append(_header("092", tournament.kind))
    lines.append(_header("102", tournament.chief_arbiter))
    lines.append(_header("112", tournament.deputy_arbiters))
    lines.append(_header("122", tournament.time_control))
    if any(tournament.round_dates):
        lines.append(_round_dates_line(tournament.round_dates))
    for player in sorted(tournament.players, key=lambda p: p.start_rank):
        lines.append(format_player_line(player))
    lines += [line.rstrip() for line in tournament.extra_lines]
    return newline.join(lines) + newline
