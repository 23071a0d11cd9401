"""Import members from CSV: create new ones, update those the member matcher finds
(national ID, FIDE ID, or name and birth date)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubrating.clubs.matching import NAME, Identity, MemberMatcher, name_key
from clubrating.clubs.models import Club, Member, Sex
from clubrating.clubs.register import member_born_notify, member_renamed_notify
from clubrating.core.columns import PRIMARY
from clubrating.interchange.formats.csvtext import CsvError, CsvTable, read_csv
from clubrating.interchange.formats.limits import (
    FIDE_ID_MAX,
    LENGTHS,
    RATING_MAX,
    FieldError,
    check_date,
    check_length,
    parse_rating,
    parse_whole,
)

from .errors import ImportRefused, ambiguous_member
from .refusals import csv_column, csv_refused, field_refused, text_checked
from .titles import title_code

COLUMNS = ("last_name", "first_name", "sex", "birth_date", "club", "national_id", "fide_id",
           "fide_rating", "title", "email", "phone")
_SEX = {"m": Sex.MALE, "f": Sex.FEMALE, "w": Sex.FEMALE, "": ""}
# What each column is stored as (the preview names it), and the headers a club's own file may
# give it: English and German, as spreadsheets and the federation's exports write them. A header
# is compared folded (``_folded``: case, umlauts, spaces and punctuation ignored).
FIELD_LABELS = {
    "last_name": gettext_lazy("last name"), "first_name": gettext_lazy("first name"),
    "sex": gettext_lazy("sex"), "birth_date": gettext_lazy("birth date"), "club": gettext_lazy("club"),
    "national_id": gettext_lazy("national ID"), "fide_id": gettext_lazy("FIDE ID"),
    "fide_rating": gettext_lazy("FIDE rating"), "title": gettext_lazy("title"),
    "email": gettext_lazy("e-mail"), "phone": gettext_lazy("phone"),
}
HEADERS = {
    "last_name": ("lastname", "nachname", "familienname", "surname", "zuname"),
    "first_name": ("firstname", "vorname", "givenname"),
    "sex": ("sex", "geschlecht", "gender"),
    "birth_date": ("birthdate", "geburtsdatum", "dateofbirth", "geboren", "geburtstag", "dob"),
    "club": ("club", "verein"),
    "national_id": ("nationalid", "oesbnr", "oesbid", "oesbnummer", "nationalenr", "natid"),
    "fide_id": ("fideid", "fidenr", "fidenummer"),
    "fide_rating": ("fiderating", "elo", "fideelo", "elofide"),
    "title": ("title", "titel", "fidetitle", "fidetitel"),
    "email": ("email", "mail", "emailadresse"),
    "phone": ("phone", "telefon", "tel", "telephone", "handy", "mobil", "telefonnummer"),
}
_BY_HEADER = {header: column for column, headers in HEADERS.items() for header in headers}
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def _folded(header: str) -> str:
    return re.sub(r"[^a-z0-9]", "", header.casefold().translate(_UMLAUTS))


# The preview table's columns on a phone (``clubrating.core.columns``): the name and the birth date
# (what tells members of the same name apart) are primary and stay on the screen; every other field
# the import will store is shown too (the preview is there to check them) and scrolls beside them
# within the table's frame.
_ROLES = {"birth_date": PRIMARY, **{c: "" for c in ("sex", "club", "national_id", "fide_id", "fide_rating",
                                                     "title", "email", "phone")}}
# The birth date right after the name, so that both stay on a phone's screen.
_FIELDS = ["birth_date"] + [c for c in COLUMNS if c not in ("last_name", "first_name", "birth_date")]

# Column -> the length of the field it is stored in.
_LENGTHS = {"last_name": "member_name", "first_name": "member_name", "club": "club",
            "national_id": "national_id", "email": "email", "phone": "phone"}


@dataclass
class MembersImportReport:
    created: list[Member] = field(default_factory=list)
    updated: list[Member] = field(default_factory=list)
    duplicates: list[tuple[int, int]] = field(default_factory=list)  # (row, the earlier row it repeats)
    columns: list[tuple[str, str]] = field(default_factory=list)  # (the file's header, the column)
    ignored: list[str] = field(default_factory=list)  # the file's headers that are not read

    def _counts(self) -> dict:
        return {"created": len(self.created), "updated": len(self.updated),
                "duplicates": len(self.duplicates)}

    def summary(self) -> str:
        created, updated, duplicates = self._counts().values()
        return " ".join((
            ngettext("%(count)d member created,", "%(count)d members created,", created) % {"count": created},
            ngettext("%(count)d updated,", "%(count)d updated,", updated) % {"count": updated},
            ngettext("%(count)d duplicate row skipped.", "%(count)d duplicate rows skipped.", duplicates)
            % {"count": duplicates},
        ))

    def preview(self) -> str:
        """The summary before confirming: nothing is saved yet."""
        created, updated, duplicates = self._counts().values()
        return " ".join((
            ngettext("%(count)d member will be created,", "%(count)d members will be created,", created)
            % {"count": created},
            ngettext("%(count)d will be updated;", "%(count)d will be updated;", updated)
            % {"count": updated},
            ngettext("%(count)d duplicate row will be skipped.", "%(count)d duplicate rows will be skipped.",
                     duplicates) % {"count": duplicates},
        ))

    def plain(self) -> dict:
        """The report as plain data, safe to read after a preview's rollback."""
        return {
            "summary": self.summary(),
            "preview": self.preview(),
            "created": [m.full_name for m in self.created],
            "updated": [m.full_name for m in self.updated],
            # What the file's columns are read as, and every value stored for every member.
            "columns": [(header, str(FIELD_LABELS[column])) for header, column in self.columns],
            "ignored": self.ignored,
            # The preview table: (heading, role) of each field after the name; (value, role) of
            # each cell, the name first.
            "head": [(str(FIELD_LABELS[c]), _ROLES[c]) for c in _FIELDS],
            "created_cells": [_stored(m) for m in self.created],
            "updated_cells": [_stored(m) for m in self.updated],
            "duplicates": [
                _("Row %(row)d: the same name and birth date as row %(first)d") % {"row": row, "first": first}
                for row, first in self.duplicates
            ],
        }


def _stored(member: Member) -> list[tuple[str, str]]:
    """The values a member is saved with, in the order of ``COLUMNS`` (name first), as text, each
    with its column's role on a phone."""
    birth = member.birth_date.strftime("%d.%m.%Y") if member.birth_date else ""
    values = {"sex": member.get_sex_display() if member.sex else "", "birth_date": birth,
              "club": member.club.name if member.club_id else "", "national_id": member.national_id,
              "fide_id": str(member.fide_id or ""), "fide_rating": str(member.fide_rating or ""),
              "title": member.fide_title, "email": member.email, "phone": member.phone}
    return [(member.full_name, PRIMARY)] + [(values[c], _ROLES[c]) for c in _FIELDS]


def _date(text: str) -> date | None:
    text = text.strip()
    if not text:
        return None
    for pattern in ("%d.%m.%Y", "%Y-%m-%d"):
        try:
            return check_date(datetime.strptime(text, pattern).date(), csv_column("birth_date"),
                              literal=True)
        except FieldError:
            raise
        except ValueError:
            continue
    raise ValueError(_("birth date %(value)s is neither dd.mm.yyyy nor yyyy-mm-dd") % {"value": text})


def _check(row_no: int, values: dict[str, str]) -> None:
    """Every value within the range and length of the field it is stored in."""
    where = {"line": row_no, "literal": True}
    for column, kind in _LENGTHS.items():
        check_length(values[column], csv_column(column), LENGTHS[kind], **where)
    if values["fide_id"]:
        parse_whole(values["fide_id"], csv_column("fide_id"), 1, FIDE_ID_MAX, **where)
    if values["fide_rating"]:  # whole Elo points: 0 (unrated) or within the rating range
        parse_whole(values["fide_rating"], csv_column("fide_rating"), 0, RATING_MAX, **where)
        parse_rating(values["fide_rating"], csv_column("fide_rating"), **where)


def _clean(row: dict[str, str], row_no: int = 0) -> dict:
    values = {key: row.get(key, "") for key in COLUMNS}
    _check(row_no, values)
    if not values["last_name"]:
        raise ValueError(_("the last name is missing"))
    sex = values["sex"].lower()
    if sex not in _SEX:
        raise ValueError(_("sex %(value)s is not m or f") % {"value": values["sex"]})
    title = title_code(values["title"])
    if values["title"] and not title:
        raise ValueError(_("title %(value)s is unknown") % {"value": values["title"]})
    if values["email"]:
        try:
            validate_email(values["email"])
        except ValidationError:
            raise ValueError(_("e-mail %(value)s is not valid") % {"value": values["email"]}) from None
    rating = parse_rating(values["fide_rating"], csv_column("fide_rating"))
    return {
        "last_name": values["last_name"], "first_name": values["first_name"], "sex": _SEX[sex],
        "birth_date": _date(values["birth_date"]), "club": values["club"],
        "national_id": values["national_id"],
        "fide_id": int(values["fide_id"]) if values["fide_id"] else None,
        "fide_rating": int(rating) if rating else None, "fide_title": title,
        "email": values["email"], "phone": values["phone"],
    }


def _headers_read(table: CsvTable) -> tuple[list[tuple[str, str]], list[str]]:
    """Rename the file's columns to the import's (``HEADERS``); returns (header, column) for
    each column read, and the headers not read. Two headers for one column refuse the file."""
    taken, ignored, first = [], [], {}
    renamed = []
    for header in table.columns:
        column = _BY_HEADER.get(_folded(header))
        if column is None:
            renamed.append(header)
            if header:
                ignored.append(header)
            continue
        if column in first:
            raise ImportRefused(_("The columns “%(first)s” and “%(second)s” both give the %(what)s.") % {
                "first": first[column], "second": header, "what": FIELD_LABELS[column]}, line=1)
        first[column] = header
        taken.append((header, column))
        renamed.append(column)
    rename = dict(zip(table.columns, renamed, strict=True))
    table.columns = renamed
    for row in table.rows:
        row.values = {rename.get(name, name): value for name, value in row.values.items()}
    return taken, ignored


def _table(text: str) -> tuple[CsvTable, list[tuple[str, str]], list[str]]:
    try:
        table = read_csv(text_checked(text))
    except (CsvError, FieldError) as error:
        raise csv_refused(error) from None
    taken, ignored = _headers_read(table)
    missing = [c for c in ("last_name", "first_name", "birth_date") if c not in table.columns]
    if missing and not table.sniffed:
        raise ImportRefused(_(
            "The header line has no delimiter (comma, semicolon or tab), so the file reads as the "
            "one column “%(column)s”; it needs the columns %(columns)s."
        ) % {"column": table.columns[0][:60], "columns": ", ".join(missing)}, line=1)
    if missing:
        raise ImportRefused(
            _("The CSV file lacks the columns %(columns)s.") % {"columns": ", ".join(missing)}
        )
    return table, taken, ignored


def _identity(values: dict) -> Identity:
    return Identity(last_name=values["last_name"], first_name=values["first_name"],
                    national_id=values["national_id"], fide_id=values["fide_id"],
                    birth_date=values["birth_date"])


def _existing(matcher: MemberMatcher, values: dict, row_no: int) -> Member | None:
    """The member a row describes. One found by an ID (so that files without birth dates can be
    imported again) but under another name is refused: renaming that member or creating a second
    one would both be wrong."""
    found = matcher.match(_identity(values))
    if found.ambiguous:
        where = _("Row %(row)d") % {"row": row_no}
        raise ambiguous_member(where, f"{values['last_name']}, {values['first_name']}", found.ambiguous)
    holder = found.member
    if holder is not None and found.evidence != NAME and name_key(
        holder.last_name, holder.first_name
    ) != name_key(values["last_name"], values["first_name"]):
        field_name = found.evidence
        label = _("FIDE ID") if field_name == "fide_id" else _("national ID")
        raise ImportRefused(_("Row %(row)d: %(what)s %(value)s belongs to %(member)s.") % {
            "row": row_no, "what": label, "value": values[field_name], "member": holder}, line=row_no)
    return holder


def members_file_check(*, text: str) -> list[tuple[int, dict]]:
    """Every row of a member file, read and checked (control characters, the CSV itself, each
    value's form, range and length) without the database: (line, values). ``ImportRefused`` at
    the first problem.

    The one check of a member file, whichever way it goes: the import runs it first, and so does
    starting a background job, before the text is stored with the job (PostgreSQL's JSON refuses
    a NUL byte), so that a file is refused the same way in the foreground and the background, on
    every database."""
    return _read(text)[0]


def _read(text: str) -> tuple[list[tuple[int, dict]], list[tuple[str, str]], list[str]]:
    """The rows as ``members_file_check`` gives them, and the columns read and not read."""
    table, taken, ignored = _table(text)
    rows = []
    for row in table.rows:
        try:
            rows.append((row.line, _clean(row.values, row.line)))
        except FieldError as problem:
            raise field_refused(problem, row.line) from None
        except ValueError as error:
            raise ImportRefused(_("Row %(row)d: %(error)s.") % {"row": row.line, "error": error},
                                line=row.line) from None
    return rows, taken, ignored


@transaction.atomic
def members_import_csv(
    *, text: str, progress: Callable[[int, str], None] | None = None
) -> MembersImportReport:
    """Create or update members from CSV; any bad row refuses the whole file. ``progress(percent,
    step)`` hears how far it is (a background job's page shows it)."""
    rows, columns, ignored = _read(text)
    report = MembersImportReport(columns=columns, ignored=ignored)
    matcher = MemberMatcher(_identity(values) for _line, values in rows)
    seen: dict[tuple[str, str, date | None], int] = {}  # -> the row it was first seen on
    clubs: dict[str, Club] = {}
    for index, (row_no, values) in enumerate(rows):
        if progress is not None and index % 500 == 0:
            step = _("Row %(row)d of %(rows)d") % {"row": index, "rows": len(rows)}
            progress(100 * index // len(rows), step)
        key = (values["last_name"].casefold(), values["first_name"].casefold(), values["birth_date"])
        if key in seen:
            report.duplicates.append((row_no, seen[key]))
            continue
        seen[key] = row_no
        club_name = values.pop("club")
        if club_name:
            if club_name not in clubs:
                clubs[club_name], _created = Club.objects.get_or_create(name=club_name)
            values["club"] = clubs[club_name]
        existing = _existing(matcher, values, row_no)
        member = existing or Member()
        old_name, old_born = (member.last_name, member.first_name), member.year_of_birth
        for name, value in values.items():
            if value not in (None, "") or existing is None:
                setattr(member, name, value)
        if member.birth_date:
            member.birth_year = None
        try:
            member.validate_unique()
            member.validate_constraints()
        except ValidationError as error:
            raise ImportRefused(_("Row %(row)d: %(error)s") % {
                "row": row_no, "error": " ".join(error.messages)}) from None
        member.save()
        if existing is not None and (member.last_name, member.first_name) != old_name:
            member_renamed_notify(member_id=member.pk)  # his place among his ties
        if existing is not None and member.year_of_birth != old_born:
            member_born_notify(member_id=member.pk)  # a junior's factor
        matcher.remember(member)
        (report.updated if existing else report.created).append(member)
    return report
