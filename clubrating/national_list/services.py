"""Importing the federation's national rating list (docs/rules.md, "The national rating list").

The file (CSV, or XLSX read as CSV by ``formats.xlsx``) is read with the column mapping the
rating officer chose; its rows are matched to members by national ID only (the federation's
own key; names are never guessed). What is kept, per list date, is the member's line as
published: national rating, games, and the name, birth year and club the file gives. Neither a
member's data nor any pool's ratings change: a pool takes a list over only as its starting
list, by an explicit act of the rating officer.

A file that cannot be read (not CSV, a control character, a quote left open, a mapped column
missing) is refused whole with its line. A row whose value cannot be read (a rating out of
range, a national ID twice) is reported with its line and skipped, as are rows whose national
ID no member has: a federation's list names every player of the country.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubrating.clubs.models import Member
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.csvtext import CsvError, CsvTable, read_csv
from clubrating.interchange.formats.limits import (
    GAMES_MAX,
    LENGTHS,
    FieldError,
    check_length,
    check_year,
    parse_rating,
    parse_whole,
)
from clubrating.interchange.formats.text import decode_text
from clubrating.interchange.formats.xlsx import is_xlsx, xlsx_to_csv
from clubrating.interchange.refusals import (
    csv_column,
    csv_refused,
    field_refused,
    problem_message,
    text_checked,
)

from .mapping import FIELDS, REQUIRED, mapping_remember
from .models import NationalList, NationalRating

SHOWN_MAX = 200  # names listed per heading of a report; the counts are always exact
_NAME_MAX = 2 * LENGTHS["member_name"] + 2


@dataclass(frozen=True)
class Row:
    line: int
    national_id: str
    rating: int | None
    games: int | None
    name: str
    birth_year: int | None
    club: str


@dataclass
class ListFile:
    rows: list[Row] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)  # "Line n: why", in file order


def national_file_text(raw: bytes) -> str:
    """The text of an uploaded or local file: an XLSX workbook's first sheet as CSV, else the
    decoded text. ``ImportRefused`` for a workbook that cannot be read."""
    if is_xlsx(raw):
        try:
            return xlsx_to_csv(raw)
        except FieldError as problem:
            if problem.line:
                raise field_refused(problem) from None
            message = problem_message(problem)  # the reader's sentence, here on its own
            raise ImportRefused(message[:1].upper() + message[1:]) from None
    return decode_text(raw)


def national_file_table(*, text: str) -> CsvTable:
    """The file's table (header and rows), refused with its line where it cannot be read."""
    try:
        table = read_csv(text_checked(text))
    except (CsvError, FieldError) as error:
        raise csv_refused(error) from None
    if not table.sniffed:
        raise ImportRefused(_(
            "The header line has no delimiter (comma, semicolon or tab), so the file reads as the "
            "one column “%(column)s”."
        ) % {"column": table.columns[0][:60]}, line=1)
    return table


def mapping_check(*, columns: dict[str, str], table_columns: list[str]) -> dict[str, str]:
    """The mapping without its empty choices; refused when a needed field is not mapped, a
    column is not in the file or is chosen twice."""
    columns = {f: c for f, c in columns.items() if f in FIELDS and c}
    for needed in REQUIRED:
        if needed not in columns:
            raise ImportRefused(_("Choose the column of “%(field)s”.") % {"field": FIELDS[needed]})
    for field_name, column in columns.items():
        if column not in table_columns:
            raise ImportRefused(_("The file has no column “%(column)s” (for “%(field)s”).")
                                % {"column": column, "field": FIELDS[field_name]})
    chosen = list(columns.values())
    twice = next((c for c in chosen if chosen.count(c) > 1), None)
    if twice is not None:
        raise ImportRefused(_("The column “%(column)s” is chosen for more than one field.")
                            % {"column": twice})
    return columns


def _row(values: dict[str, str], line: int, columns: dict[str, str]) -> Row:
    def cell(name: str) -> str:
        return values.get(columns[name], "") if name in columns else ""

    def where(name: str) -> dict:
        return {"line": line, "literal": True, "field": csv_column(columns[name])}

    national_id = cell("national_id")
    if not national_id:
        raise FieldError("missing", **where("national_id"))
    check_length(national_id, maximum=LENGTHS["national_id"], **where("national_id"))
    rating = parse_rating(cell("rating"), **where("rating"))
    if rating is not None and not rating.is_integer():
        raise FieldError("not_number", value=cell("rating")[:40], **where("rating"))
    games = parse_whole(cell("games"), low=0, high=GAMES_MAX, **where("games")) if cell("games") else None
    birth_year = None
    if cell("birth_year"):
        birth_year = check_year(parse_whole(cell("birth_year"), low=0, high=9999, **where("birth_year")),
                                **where("birth_year"))
    name = check_length(cell("name"), maximum=_NAME_MAX, **where("name")) if "name" in columns else ""
    club = check_length(cell("club"), maximum=LENGTHS["club"], **where("club")) if "club" in columns else ""
    return Row(line, national_id, int(rating) if rating is not None else None, games, name, birth_year, club)


def national_file_read(*, text: str, columns: dict[str, str]) -> ListFile:
    """The rows of a national list file under the mapping ``columns`` (field -> the file's
    column). Rows whose values cannot be read, and a national ID's later rows, are listed as
    invalid with their line."""
    table = national_file_table(text=text)
    columns = mapping_check(columns=columns, table_columns=table.columns)
    found = ListFile()
    first_line: dict[str, int] = {}
    for csv_row in table.rows:
        try:
            row = _row(csv_row.values, csv_row.line, columns)
        except FieldError as problem:
            found.invalid.append(problem_message(problem, csv_row.line))
            continue
        if row.national_id in first_line:
            found.invalid.append(_("Line %(line)d: national ID %(id)s is on line %(first)d already.") % {
                "line": row.line, "id": row.national_id, "first": first_line[row.national_id]})
            continue
        first_line[row.national_id] = row.line
        found.rows.append(row)
    if not found.rows and not found.invalid:
        raise ImportRefused(_("The file has a header but no rows."))
    return found


def _shown_rating(rating: int | None) -> str:
    return str(rating) if rating is not None else "—"


def _label(row: Row) -> str:
    return f"{row.national_id} {row.name}".strip()


@dataclass
class ImportReport:
    list_date: datetime.date
    rows: int = 0
    matched: int = 0
    new: int = 0  # matched members without a national rating before
    changes: list[str] = field(default_factory=list)  # "name: old → new"
    unknown: list[str] = field(default_factory=list)  # rows whose national ID no member has
    missing: list[str] = field(default_factory=list)  # members with a national ID the list lacks
    invalid: list[str] = field(default_factory=list)
    saved: int = 0  # entries created, changed or removed
    list_pk: int | None = None

    def plain(self) -> dict:
        """The report as plain data (safe after a preview's rollback), lists cut to ``SHOWN_MAX``."""
        counts = {"matched": self.matched, "changes": len(self.changes), "unknown": len(self.unknown),
                  "missing": len(self.missing), "invalid": len(self.invalid), "saved": self.saved,
                  "new": self.new, "rows": self.rows}
        return {
            "counts": counts,
            "list_date": self.list_date.isoformat(),
            "list_pk": self.list_pk,
            "shown_max": SHOWN_MAX,
            "preview": " ".join((
                ngettext("%(matched)d member matched,", "%(matched)d members matched,",
                         self.matched) % counts,
                ngettext("%(changes)d rating change,", "%(changes)d rating changes,",
                         len(self.changes)) % counts,
                ngettext("%(unknown)d unknown national ID,", "%(unknown)d unknown national IDs,",
                         len(self.unknown)) % counts,
                ngettext("%(missing)d member not in the list,", "%(missing)d members not in the list,",
                         len(self.missing)) % counts,
                ngettext("%(invalid)d invalid row.", "%(invalid)d invalid rows.", len(self.invalid)) % counts,
            )),
            "summary": ngettext(
                "National list saved: %(matched)d member, %(saved)d entry changed.",
                "National list saved: %(matched)d members, %(saved)d entries changed.",
                self.matched) % counts,
            **{name: getattr(self, name)[:SHOWN_MAX]
               for name in ("changes", "unknown", "missing", "invalid")},
        }


def _previous(member_ids, list_date: datetime.date) -> dict[int, int | None]:
    """{member: national rating} on each member's latest list up to ``list_date`` (this one too:
    importing the same list again changes no rating)."""
    latest: dict[int, int | None] = {}
    rows = (NationalRating.objects.filter(national_list__list_date__lte=list_date)
            .order_by("national_list__list_date").values_list("member_id", "rating"))
    wanted = set(member_ids)
    for member_id, rating in rows.iterator(chunk_size=5000):
        if member_id in wanted:
            latest[member_id] = rating
    return latest


_KEPT = ("national_id", "name", "rating", "games", "birth_year", "club")


@transaction.atomic
def national_list_import(
    *, text: str, columns: dict[str, str], list_date: datetime.date, file_name: str = "", user=None,
    progress: Callable[[int, str], None] | None = None,
) -> ImportReport:
    """Keep the national list of ``list_date`` from ``text`` (CSV) read with the mapping
    ``columns``; the mapping is remembered. The list of that date is replaced by the file's
    lines of known members: importing the same file again changes nothing. Refused when no row
    matches a member (a wrong column chosen, or the members lack national IDs)."""
    found = national_file_read(text=text, columns=columns)
    report = ImportReport(list_date=list_date, rows=len(found.rows) + len(found.invalid),
                          invalid=found.invalid)
    members = {
        national_id: (pk, f"{last}, {first}" if first else last)
        for national_id, pk, last, first in Member.objects.exclude(national_id="")
        .filter(erased_on__isnull=True).values_list("national_id", "pk", "last_name", "first_name")
    }
    matched: dict[int, Row] = {}
    for row in found.rows:
        member = members.get(row.national_id)
        if member is None:
            report.unknown.append(_("Line %(line)d: %(label)s") % {"line": row.line, "label": _label(row)})
        else:
            matched[member[0]] = row
    if not matched:
        raise ImportRefused(ngettext(
            "The national ID of the %(count)d row matches no member: is the right column chosen, "
            "and do the members have their national IDs?",
            "None of the national IDs of the %(count)d rows matches a member: is the right column "
            "chosen, and do the members have their national IDs?",
            len(found.rows)) % {"count": len(found.rows)})
    listed = set(matched)
    names = {pk: name for pk, name in members.values()}
    report.missing = sorted((names[pk] for pk in names if pk not in listed), key=str.casefold)
    report.matched = len(matched)
    previous = _previous(listed, list_date)
    for pk, row in sorted(matched.items(), key=lambda item: item[1].line):
        if pk not in previous:
            report.new += 1
        if previous.get(pk) != row.rating:
            report.changes.append(
                f"{names[pk]}: {_shown_rating(previous.get(pk))} → {_shown_rating(row.rating)}")
    report.saved = _store(list_date=list_date, matched=matched, file_name=file_name, user=user,
                          progress=progress)
    mapping_remember(columns=columns, user=user)
    report.list_pk = NationalList.objects.filter(list_date=list_date).values_list("pk", flat=True).first()
    return report


def _store(*, list_date, matched: dict[int, Row], file_name: str, user, progress) -> int:
    """Write the list's entries; returns how many were created, changed or removed (0 for a list
    stored already: nothing is written then, not even the import's time)."""
    nlist = NationalList.objects.select_for_update().filter(list_date=list_date).first()
    existing = {e.member_id: e for e in nlist.entries.all()} if nlist else {}
    created, changed = [], []
    for index, (pk, row) in enumerate(matched.items()):
        if progress is not None and index % 2000 == 0:
            step = _("Row %(row)d of %(rows)d") % {"row": index, "rows": len(matched)}
            progress(100 * index // len(matched), step)
        values = {name: getattr(row, name) for name in _KEPT}
        entry = existing.get(pk)
        if entry is None:
            created.append(NationalRating(member_id=pk, **values))
        elif any(getattr(entry, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(entry, name, value)
            changed.append(entry)
    gone = [e.pk for pk, e in existing.items() if pk not in matched]
    count = len(created) + len(changed) + len(gone)
    if not count and nlist is not None:
        return 0
    if nlist is None:
        nlist = NationalList.objects.create(list_date=list_date, file_name=file_name[:200],
                                            imported_at=timezone.now(), imported_by=user)
    else:
        nlist.file_name, nlist.imported_at, nlist.imported_by = file_name[:200], timezone.now(), user
        nlist.save(update_fields=["file_name", "imported_at", "imported_by"])
    for entry in created:
        entry.national_list = nlist
    NationalRating.objects.filter(pk__in=gone).delete()
    NationalRating.objects.bulk_create(created, batch_size=2000)
    NationalRating.objects.bulk_update(changed, list(_KEPT), batch_size=2000)
    return count


@transaction.atomic
def member_national_ratings_erase(*, member) -> int:
    """Delete the member's lines of the national lists (his national ID, name, birth year and
    club as the federation's file gave them) when he is erased: they are the federation's
    record, kept by the federation, not a sporting record of the site. Returns how many."""
    deleted, _by_model = NationalRating.objects.filter(member=member).delete()
    return deleted
