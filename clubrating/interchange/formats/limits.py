"""The values an imported file may carry: plausible ranges and the lengths of the fields they
are stored in, checked the same way by every reader and importer.

A value outside them raises ``FieldError``: a code, the field (a label or the file's column
name), the line, and the parameters of an English message. The messages are marked for
translation here and translated by the services (``clubrating.interchange.refusals``), so that
this module stays pure Python.
"""

from __future__ import annotations

import math
import re
from datetime import date, timedelta

__all__ = [
    "BOARDS_MAX", "FIDE_ID_MAX", "GAMES_MAX", "LENGTHS", "MESSAGES", "Label", "POINTS_MAX", "RATING_MAX",
    "RATING_MIN", "ROUNDS_MAX", "START_RANK_MAX", "YEAR_MIN", "FieldError", "check_date",
    "check_length", "check_name", "check_text", "check_year", "latest_date", "parse_rating", "parse_whole",
]


def gettext_noop(message: str) -> str:
    return message


class Label(str):
    """A parameter of a message that is itself translated (a field's label such as "FIDE ID"),
    not shown as it is."""


# Elo-type ratings: 0 (or blank) means unrated, anything else lies between these. Austrian
# national rating rules (ÖSB) and the FIDE Rating Regulations keep their ratings far inside it.
RATING_MIN = 100
RATING_MAX = 3000
GAMES_MAX = 100_000  # a player's rated games; no career comes near it
# FIDE IDs fill at most the 11 columns of a TRF16 player line (far below 2**63).
FIDE_ID_MAX = 99_999_999_999
YEAR_MIN = 1850  # birth dates, tournament and round dates; the latest is a year from today
ROUNDS_MAX = 999
BOARDS_MAX = 9999
START_RANK_MAX = 9999  # four columns in TRF16
POINTS_MAX = 999

# max_length of the model fields the values are stored in (tests compare them with the models).
LENGTHS = {
    "member_name": 80,  # Member.first_name, Member.last_name
    "national_id": 20,
    "club": 120,  # Club.name
    "email": 254,
    "phone": 40,
    "tournament_name": 200,
    "place": 120,  # Tournament.place, .director, .time_control
    "federation": 3,  # Tournament.federation, Member.federation: FIDE's three-letter codes
}

MESSAGES = {
    "not_number": gettext_noop("%(field)s “%(value)s” is not a whole number."),
    "range": gettext_noop("%(field)s %(value)s is not between %(low)s and %(high)s."),
    "rating": gettext_noop(
        "%(field)s “%(value)s” is not a rating: 0 (unrated) or %(low)s to %(high)s."),
    "date": gettext_noop("%(field)s “%(value)s” is not a date."),
    "date_range": gettext_noop("%(field)s %(value)s is not between %(low)s and %(high)s."),
    "too_long": gettext_noop("%(field)s is longer than %(max)s characters."),
    "missing": gettext_noop("%(field)s is missing."),
    "control": gettext_noop("column %(column)s holds a control character (%(value)s)."),
    "name_line": gettext_noop("%(field)s must be one line without tabs or control characters."),
    "line_break": gettext_noop("a quoted field runs on to line %(end)s; is a quote unbalanced?"),
    "extra_cells": gettext_noop("the row has %(count)s fields, the header only %(columns)s."),
    "self": gettext_noop("round %(round)d: the player plays against himself."),
    "beyond": gettext_noop("round %(round)d is beyond the %(rounds)d rounds of the tournament."),
    "unpaired": gettext_noop(
        "round %(round)d: player %(me)d plays %(other)d, but the line of %(other)d (line "
        "%(other_line)d) does not have this game."),
    "colours": gettext_noop("round %(round)d: players %(me)d and %(other)d disagree about the colours."),
    "results": gettext_noop(
        "round %(round)d: the results of players %(me)d (%(mine)s) and %(other)d (%(theirs)s) "
        "do not fit together."),
    # TRF files (FIDE Handbook C04 Annex 2, TRF16)
    "not_decimal": gettext_noop("%(field)s “%(value)s” is not a number."),
    "round_results": gettext_noop(
        "the round results “%(value)s” cannot be read: each round is an opponent, a colour and a "
        "result."),
    "no_players": gettext_noop("the file has no player lines (001)."),
    "twice": gettext_noop("start rank %(rank)d appears twice (also on line %(first)d)."),
    "no_opponent": gettext_noop("round %(round)d: opponent %(opponent)d has no player line."),
    "mismatch": gettext_noop(
        "round %(round)d: the result against %(other)d does not match line %(other_line)d."),
    "spill": gettext_noop(
        "column %(column)d between %(left)s (columns %(left_columns)s) and %(right)s (columns "
        "%(right_columns)s) must be blank, but “%(value)s” runs over it: the fields are shifted."),
    "forfeit_kind": gettext_noop("%(field)s “%(value)s” is not one of +-, -+ and --."),
    # CSV files
    "empty": gettext_noop("the file is empty."),
    "csv_quote": gettext_noop(
        "a quoted field is followed by more text before the next “%(delimiter)s”; a quote inside a "
        "field must be doubled."),
    "csv_end": gettext_noop("the file ends inside a quoted field; is a quote unbalanced?"),
    "csv_field_size": gettext_noop("a field is longer than %(max)s characters."),
    "csv_syntax": gettext_noop("the line cannot be read as CSV."),
    "csv_mixed": gettext_noop(
        "the row is separated by “%(found)s”, the header by “%(delimiter)s”; every row must use "
        "the header's delimiter."),
    # XLSX workbooks
    "xlsx": gettext_noop("the file is neither a CSV table nor an Excel workbook (XLSX) that can be read."),
    # PGN files
    "pgn_date": gettext_noop(
        "%(field)s “%(value)s” is not a date like 2025.03.07 (with ?? for a part not known)."),
    # FIDE's combined rating list (players_list_foa.txt / players_list_xml_foa.xml)
    "fide_header": gettext_noop(
        "this is not FIDE's rating list: the header line has no column “%(column)s”."),
    "fide_archive": gettext_noop(
        "the zip file holds no FIDE rating list (players_list_foa.txt or players_list_xml_foa.xml)."),
    "fide_zip": gettext_noop("the zip file is damaged and cannot be read."),
    "fide_xml": gettext_noop("the XML is not well-formed (column %(column)s)."),
    "fide_code": gettext_noop("%(field)s “%(value)s” is not one of %(allowed)s."),
    "fide_twice": gettext_noop("FIDE ID %(value)s appears twice (also on line %(first)s)."),
    "fide_line": gettext_noop("the line is longer than %(max)s bytes: it is no line of FIDE's rating list."),
    "fide_entity": gettext_noop(
        "the XML declares an entity of its own (“%(value)s”), which FIDE's rating list never does."),
    "fide_packed": gettext_noop("the zip file is encrypted or compressed by a method that cannot be read."),
    "fide_gzip": gettext_noop("the gzip file is damaged and cannot be read."),
}


class FieldError(ValueError):
    """A value the importers refuse. ``field`` is a label for translation (``literal`` False) or
    the file's own column name (``literal`` True); ``line`` is 1-based, 0 when unknown."""

    def __init__(self, code: str, *, field: str = "", line: int = 0, literal: bool = False, **params):
        self.code = code
        self.field = field
        self.line = line
        self.literal = literal
        self.params = params
        super().__init__(self.render(lambda text: text))

    def render(self, gettext, shown=lambda value: value) -> str:
        """The message through ``gettext`` (the identity for English); ``shown`` writes a value
        (a date in the UI's format, say; ISO dates here)."""
        field = self.field if self.literal or not self.field else gettext(self.field)
        return gettext(MESSAGES[self.code]) % {"field": field, **{
            name: gettext(value) if isinstance(value, Label) else shown(value)
            for name, value in self.params.items()}}

    def __str__(self) -> str:
        text = self.render(lambda text: text)
        return f"line {self.line}: {text}" if self.line else text


_DIGITS = re.compile(r"[0-9]+")


def parse_whole(text: str, field: str, low: int, high: int, **where) -> int:
    """An integer of ASCII digits (a sign only to be refused as out of range) in [low, high]."""
    text = text.strip()
    if not _DIGITS.fullmatch(text.lstrip("+-")):
        raise FieldError("not_number", field=field, value=text[:40], **where)
    value = int(text)
    if not low <= value <= high:
        raise FieldError("range", field=field, value=text[:40], low=low, high=high, **where)
    return value


def parse_rating(text: str | float | int, field: str, **where) -> float | None:
    """A rating: None for blank or 0 (unrated), else a finite number in [RATING_MIN, RATING_MAX].
    A decimal comma is read as a point."""
    if isinstance(text, str):
        shown = text.strip()
        if not shown:
            return None
        try:
            value = float(shown.replace(",", "."))
        except ValueError:
            value = math.nan
    else:
        shown, value = str(text), float(text)
    if value == 0:
        return None
    if not (math.isfinite(value) and RATING_MIN <= value <= RATING_MAX):
        raise FieldError("rating", field=field, value=shown[:40], low=RATING_MIN, high=RATING_MAX,
                         **where)
    return value


def latest_date(today: date | None = None) -> date:
    return (today or date.today()) + timedelta(days=366)


def check_date(value: date, field: str, **where) -> date:
    latest = latest_date()
    if not date(YEAR_MIN, 1, 1) <= value <= latest:
        raise FieldError("date_range", field=field, value=value, low=date(YEAR_MIN, 1, 1), high=latest,
                         **where)
    return value


def check_year(value: int, field: str, **where) -> int:
    latest = latest_date().year
    if not YEAR_MIN <= value <= latest:
        raise FieldError("range", field=field, value=value, low=YEAR_MIN, high=latest, **where)
    return value


def check_length(text: str, field: str, maximum: int, **where) -> str:
    if len(text) > maximum:
        raise FieldError("too_long", field=field, max=maximum, **where)
    return text


# C0 and C1 control characters and DEL; tab and the line breaks are text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def check_text(text: str) -> None:
    """FieldError ``control`` at the first control character, with its line (CR, LF and CRLF
    each end a line) and column."""
    found = _CONTROL.search(text)
    if found is None:
        return
    before = text[: found.start()].replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    raise FieldError("control", line=line, column=column, value=f"U+{ord(found.group()):04X}")


# A name is one line: no tab, line break or other control character, which no TRF line or CSV
# row could carry back (the line separators of Unicode included).
_NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def check_name(text: str, field: str, **where) -> str:
    if _NOT_IN_NAMES.search(text):
        raise FieldError("name_line", field=field, **where)
    return text
