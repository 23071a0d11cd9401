"""A pool's starting list from CSV (ID or name + birth date, rating, games) or a TRF's ratings.

Members are found by the one member matcher (``clubrating.clubs.matching``), never guessed:
rows that match no member or several are reported and skipped.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.clubs.matching import Identity, MemberMatcher
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.csvtext import CsvError, read_csv
from clubrating.interchange.formats.detect import CSV, TRF, sniff_format
from clubrating.interchange.formats.limits import (
    FIDE_ID_MAX,
    GAMES_MAX,
    LENGTHS,
    FieldError,
    check_date,
    check_length,
    check_year,
    parse_rating,
    parse_whole,
)
from clubrating.interchange.formats.text import read_text
from clubrating.interchange.formats.trf import TrfError, parse_trf
from clubrating.interchange.refusals import (
    csv_column,
    csv_refused,
    field_refused,
    file_error,
    text_checked,
    trf_refused,
)
from ratings.models import ListEntry, ListKind, PublishedList, RatingPool
from ratings.services.errors import RatingsError
from ratings.services.evaluation import period_evaluate
from ratings.services.lists import EntryData, list_publish
from ratings.services.pools import open_period, pool_lock


@dataclass
class ImportReport:
    plist: PublishedList
    imported: int
    unknown: list[str] = field(default_factory=list)  # rows that matched no member or several
    entries: list[str] = field(default_factory=list)  # "rank. name: rating", in list order
    unrated: list[str] = field(default_factory=list)  # rows without a rating, skipped

    def plain(self) -> dict:
        """The report as plain data, safe to read after a preview's rollback."""
        counts = {"count": self.imported, "unknown": len(self.unknown) + len(self.unrated)}
        return {
            "summary": _("%(count)d ratings imported, %(unknown)d rows skipped.") % counts,
            "preview": _("%(count)d ratings will be imported, %(unknown)d rows skipped.") % counts,
            "matched": list(self.entries),
            "created": [],
            "refused": list(self.unrated) + list(self.unknown),
            "list_pk": self.plist.pk,
        }


@dataclass
class _Row:
    line: int
    label: str
    identity: Identity
    rating: float
    games: int = 0


def _refused(refusal: ImportRefused) -> RatingsError:
    """The format's refusal as the ratings app's, which its views and commands catch."""
    return RatingsError(refusal.message, line=refusal.line, field=refusal.field)


def _parse_birth(text: str, line: int) -> tuple[datetime.date | None, int | None]:
    text = text.strip()
    where = {"line": line, "literal": True}
    if not text:
        return None, None
    if text.isascii() and text.isdigit() and len(text) == 4:
        return None, check_year(int(text), csv_column("birth_date"), **where)
    for fmt in ("%Y-%m-%d", "%d.%m.%Y", "%Y.%m.%d", "%Y/%m/%d"):
        try:
            day = datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
        return check_date(day, csv_column("birth_date"), **where), day.year
    raise RatingsError(_("Line %(line)s: “%(value)s” is not a birth date.")
                       % {"line": line, "value": text[:40]})


def _csv_row(row) -> _Row | str:
    """The row's values, each within its range; the row's label for an unrated player (rating 0
    or blank)."""
    where = {"line": row.line, "literal": True}
    rating = parse_rating(row.get("rating"), csv_column("rating"), **where)
    games = parse_whole(row.get("games") or "0", csv_column("games"), 0, GAMES_MAX, **where)
    fide_id = parse_whole(row.get("fide_id"), csv_column("fide_id"), 1, FIDE_ID_MAX, **where) \
        if row.get("fide_id") else None
    check_length(row.get("id"), csv_column("id"), LENGTHS["national_id"], **where)
    check_length(row.get("name"), csv_column("name"), 2 * LENGTHS["member_name"] + 2, **where)
    bdate, byear = _parse_birth(row.get("birth_date"), row.line)
    label = row.get("name") or row.get("id") or str(fide_id)
    if rating is None:
        return label
    identity = Identity.named(row.get("name"), national_id=row.get("id"), fide_id=fide_id,
                              birth_date=bdate, birth_year=byear)
    return _Row(row.line, label, identity, rating, games)


def _unrated(line: int, label: str) -> str:
    return _("line %(line)s: %(label)s (no rating: an unrated player)") % {"line": line, "label": label}


def _csv_rows(text: str) -> tuple[list[_Row], list[str]]:
    try:
        table = read_csv(text)
    except (CsvError, FieldError) as error:
        raise _refused(csv_refused(error)) from None
    headers = set(table.columns)
    if "rating" not in headers or not ({"id", "fide_id"} & headers or "name" in headers):
        if not table.sniffed:
            raise RatingsError(_(
                "The header line has no delimiter (comma, semicolon or tab), so the file reads as "
                "one column; it needs the columns “rating” and “id” or “name”."), line=1)
        raise RatingsError(
            _("The CSV file needs the columns “rating” and “id” or “name” (optional: “birth_date”, “games”).")
        )
    rows, unrated = [], []
    for row in table.rows:
        try:
            parsed = _csv_row(row)
        except FieldError as problem:
            raise _refused(field_refused(problem, row.line)) from None
        if isinstance(parsed, str):
            unrated.append(_unrated(row.line, parsed))
        else:
            rows.append(parsed)
    return rows, unrated


def _trf_rows(text: str) -> tuple[list[_Row], list[str]]:
    try:
        trf = parse_trf(text)
    except TrfError as exc:
        raise _refused(trf_refused(exc)) from None
    rows = [
        _Row(p.line_no, p.name, Identity.named(p.name, fide_id=p.fide_id, birth_date=p.birth_date,
                                               birth_year=p.birth_year), float(p.rating))
        for p in trf.players
        if p.rating is not None
    ]
    return rows, [_unrated(p.line_no, p.name) for p in trf.players if p.rating is None]


def _match(rows: list[_Row]) -> tuple[dict[int, _Row], list[str]]:
    """Members for the rows (one query); rows matching nobody, several or a member already
    taken by an earlier row are reported."""
    matcher = MemberMatcher(r.identity for r in rows)
    matched: dict[int, _Row] = {}
    unknown: list[str] = []
    for r in rows:
        found = matcher.match(r.identity)
        member = found.member
        if member is None or member.pk in matched:
            if found.ambiguous:
                why = _("several members match")
            elif member is not None:
                why = _("the same member as line %(line)s") % {"line": matched[member.pk].line}
            else:
                why = _("no member matches")
            unknown.append(_("line %(line)s: %(label)s (%(why)s)")
                           % {"line": r.line, "label": r.label, "why": why})
            continue
        matched[member.pk] = r
    return matched, unknown


@transaction.atomic
def ratings_import_list(
    *,
    pool: RatingPool,
    path: str | Path | None = None,
    text: str | None = None,
    file_format: str | None = None,
    note: str = "",
    user=None,
) -> ImportReport:
    """Create the pool's first published list from a file (``path``) or ``text``.

    ``file_format`` is ``"csv"`` or ``"trf"`` (``clubrating.interchange.formats.detect``);
    without it the format is told from the content. ``note`` (default: the file's name) is
    recorded with the list."""
    if text is None:
        if path is None:
            raise RatingsError(_("Give a file to import."))
        try:
            text = read_text(path)
        except OSError as exc:
            raise RatingsError(
                _("Cannot read %(path)s: %(error)s") % {"path": path, "error": file_error(exc)}
            ) from None
    pool = pool_lock(pool)
    if PublishedList.objects.filter(pool=pool).exists():
        raise RatingsError(
            _(
                "The pool “%(pool)s” already has a published list; a starting list can only "
                "be imported into a new pool."
            )
            % {"pool": pool.name}
        )
    try:
        text_checked(text)
    except ImportRefused as refusal:
        raise _refused(refusal) from None
    file_format = file_format or sniff_format(text)
    if file_format not in (CSV, TRF):
        raise ValueError(f"unknown file format {file_format!r}")
    rows, unrated = _trf_rows(text) if file_format == TRF else _csv_rows(text)
    if not rows:
        raise RatingsError(_("The file contains no ratings."))
    matched, unknown = _match(rows)
    if not matched:
        # Publishing an empty starting list would lock the pool (a starting list goes into a new
        # pool only), so refuse and say what to do instead.
        raise RatingsError(
            _(
                "None of the %(count)s rows matches a member. Import the members first (CSV, or the "
                "tournament's TRF file), then the starting list."
            )
            % {"count": len(rows)}
        )
    entries = {
        pk: EntryData(rating=r.rating, games_count=r.games, reached_2400=r.rating >= 2400)
        for pk, r in matched.items()
    }
    plist = list_publish(
        pool=pool,
        entries=entries,
        kind=ListKind.START,
        valid_from=pool.start_date,
        user=user,
        note=note or (str(Path(path).name) if path else ""),
    )
    period_evaluate(pool, open_period(pool))
    lines = [
        f"{e.rank}. {e.member.full_name}: {e.rating:g}"
        for e in ListEntry.objects.filter(list=plist).select_related("member").order_by("rank")
    ]
    return ImportReport(plist=plist, imported=len(matched), unknown=unknown, entries=lines, unrated=unrated)
