"""Import members from CSV: create new ones, update those the member matcher finds
(national ID, FIDE ID, or name and birth date)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubrating.clubs.matching import NAME, Identity, MemberMatcher, name_key
from clubrating.clubs.models import Club, Member, Sex
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
# Column -> the length of the field it is stored in.
_LENGTHS = {"last_name": "member_name", "first_name": "member_name", "club": "club",
            "national_id": "national_id", "email": "email", "phone": "phone"}


@dataclass
class MembersImportReport:
    created: list[Member] = field(default_factory=list)
    updated: list[Member] = field(default_factory=list)
    duplicates: list[tuple[int, int]] = field(default_factory=list)  # (row, the earlier row it repeats)

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
            "duplicates": [
                _("Row %(row)d: the same name and birth date as row %(first)d") % {"row": row, "first": first}
                for row, first in self.duplicates
            ],
        }


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


def _table(text: str) -> CsvTable:
    try:
        table = read_csv(text_checked(text))
    except (CsvError, FieldError) as error:
        raise csv_refused(error) from None
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
    return table


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
    rows = []
    for row in _table(text).rows:
        try:
            rows.append((row.line, _clean(row.values, row.line)))
        except FieldError as problem:
            raise field_refused(problem, row.line) from None
        except ValueError as error:
            raise ImportRefused(_("Row %(row)d: %(error)s.") % {"row": row.line, "error": error},
                                line=row.line) from None
    return rows


@transaction.atomic
def members_import_csv(
    *, text: str, progress: Callable[[int, str], None] | None = None
) -> MembersImportReport:
    """Create or update members from CSV; any bad row refuses the whole file. ``progress(percent,
    step)`` hears how far it is (a background job's page shows it)."""
    report = MembersImportReport()
    rows = members_file_check(text=text)
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
        matcher.remember(member)
        (report.updated if existing else report.created).append(member)
    return report
