"""A pool's starting list from CSV (ID or name + birth date, rating, games) or a TRF's ratings.

Members are matched, never guessed: by national ID or FIDE ID, else by exact name and birth
date (or year). Rows that match no member or several are reported and skipped.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member
from ratings.models import ListKind, PublishedList, RatingPool
from ratings.services.errors import RatingsError
from ratings.services.evaluation import period_evaluate
from ratings.services.lists import EntryData, list_publish
from ratings.services.pools import open_period, pool_lock


@dataclass
class ImportReport:
    plist: PublishedList
    imported: int
    unknown: list[str] = field(default_factory=list)  # rows that matched no member or several


@dataclass
class _Row:
    line: int
    label: str
    rating: float
    games: int = 0
    national_id: str = ""
    fide_id: int | None = None
    last_name: str = ""
    first_name: str = ""
    birth_date: datetime.date | None = None
    birth_year: int | None = None


def _split_name(name: str) -> tuple[str, str]:
    last, _sep, first = name.partition(",")
    return last.strip(), first.strip()


def _parse_birth(text: str, line: int) -> tuple[datetime.date | None, int | None]:
    text = text.strip()
    if not text:
        return None, None
    if text.isdigit() and len(text) == 4:
        return None, int(text)
    for fmt in ("%Y-%m-%d", "%d.%m.%Y", "%Y.%m.%d", "%Y/%m/%d"):
        try:
            day = datetime.datetime.strptime(text, fmt).date()
            return day, day.year
        except ValueError:
            continue
    raise RatingsError(_("Line %(line)s: “%(value)s” is not a birth date.") % {"line": line, "value": text})


def _csv_rows(text: str) -> list[_Row]:
    dialect = csv.Sniffer().sniff(text.splitlines()[0] if text.strip() else ",", delimiters=",;\t")
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    headers = {h.strip().lower() for h in reader.fieldnames or []}
    if "rating" not in headers or not ({"id", "fide_id"} & headers or "name" in headers):
        raise RatingsError(
            _("The CSV file needs the columns “rating” and “id” or “name” (optional: “birth_date”, “games”).")
        )
    rows = []
    for line, raw in enumerate(reader, start=2):
        rec = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items()}
        try:
            rating = float(rec["rating"].replace(",", "."))
            games = int(rec.get("games") or 0)
            fide_id = int(rec["fide_id"]) if rec.get("fide_id") else None
        except ValueError:
            raise RatingsError(
                _("Line %(line)s: rating, games and FIDE ID must be numbers.") % {"line": line}
            ) from None
        last, first = _split_name(rec.get("name", ""))
        bdate, byear = _parse_birth(rec.get("birth_date", ""), line)
        rows.append(
            _Row(
                line,
                rec.get("name") or rec.get("id") or str(fide_id),
                rating,
                games,
                rec.get("id", ""),
                fide_id,
                last,
                first,
                bdate,
                byear,
            )
        )
    return rows


def _trf_rows(text: str) -> list[_Row]:
    from ratings.trf.reader import TrfError, parse_trf

    try:
        trf = parse_trf(text)
    except TrfError as exc:
        raise RatingsError(_("The TRF file cannot be read: %(error)s") % {"error": exc}) from None
    rows = []
    for p in trf.players:
        if p.rating is None:
            continue
        last, first = _split_name(p.name)
        rows.append(
            _Row(
                p.line_no, p.name, float(p.rating), 0, "", p.fide_id, last, first, p.birth_date, p.birth_year
            )
        )
    return rows


def _match(rows: list[_Row]) -> tuple[dict[int, _Row], list[str]]:
    """Members for the rows, in three queries whatever the number of rows."""
    by_nid = dict(
        Member.objects.filter(national_id__in=[r.national_id for r in rows if r.national_id]).values_list(
            "national_id", "pk"
        )
    )
    by_fide = dict(
        Member.objects.filter(fide_id__in=[r.fide_id for r in rows if r.fide_id]).values_list("fide_id", "pk")
    )
    by_name: dict[tuple[str, str], list[tuple[int, datetime.date | None, int | None]]] = {}
    names = {r.last_name for r in rows if r.last_name}
    for pk, last, first, bdate, byear in Member.objects.filter(last_name__in=names).values_list(
        "pk", "last_name", "first_name", "birth_date", "birth_year"
    ):
        by_name.setdefault((last.casefold(), first.casefold()), []).append((pk, bdate, byear))
    matched: dict[int, _Row] = {}
    unknown: list[str] = []
    for r in rows:
        pk = by_nid.get(r.national_id) if r.national_id else None
        if pk is None and r.fide_id:
            pk = by_fide.get(r.fide_id)
        if pk is None and r.last_name and (r.birth_date or r.birth_year):
            candidates = [
                c
                for c, bdate, byear in by_name.get((r.last_name.casefold(), r.first_name.casefold()), [])
                if (r.birth_date and bdate == r.birth_date)
                or ((bdate.year if bdate else byear) == (r.birth_year or r.birth_date.year))
            ]
            pk = candidates[0] if len(candidates) == 1 else None
        if pk is None or pk in matched:
            unknown.append(_("line %(line)s: %(label)s") % {"line": r.line, "label": r.label})
            continue
        matched[pk] = r
    return matched, unknown


@transaction.atomic
def ratings_import_list(
    *,
    pool: RatingPool,
    path: str | Path | None = None,
    text: str | None = None,
    user=None,
) -> ImportReport:
    """Create the pool's first published list from a CSV or TRF file (``path``) or ``text``."""
    if text is None:
        if path is None:
            raise RatingsError(_("Give a file to import."))
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise RatingsError(
                _("Cannot read %(path)s: %(error)s") % {"path": path, "error": exc.strerror}
            ) from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
    pool = pool_lock(pool)
    if PublishedList.objects.filter(pool=pool).exists():
        raise RatingsError(
            _(
                "The pool “%(pool)s” already has a published list; a starting list can only "
                "be imported into a new pool."
            )
            % {"pool": pool.name}
        )
    is_trf = str(path or "").lower().endswith(".trf") or text.lstrip()[:4] in {"012 ", "001 "}
    rows = _trf_rows(text) if is_trf else _csv_rows(text)
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
        note=str(Path(path).name) if path else "",
    )
    period_evaluate(pool, open_period(pool))
    return ImportReport(plist=plist, imported=len(matched), unknown=unknown)
