"""Building a rating list, once for all its faces: the page, the print layout, the CSV/XLSX
exports and the PDF (drawn at once or by a background job) take the list, its filters and its
order from here.

A face names the list (``live_source`` or ``published_source``) and the query it was asked with
(filters and sort: the page's ``GET`` parameters, or those a PDF job keeps); filtering and
sorting happen in SQL on ``ratings.selectors.published_rows``/``live_rows``, and the long faces
stream the rows (``export_rows``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.http import QueryDict
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubrating.clubs.models import Club
from clubrating.clubs.selectors import club_data_changes, club_data_version, home_club_name
from clubrating.core.downloads import download_stem
from clubrating.core.exports import ExportColumn, export_response
from clubrating.core.pdf import print_context
from clubrating.core.table_pdf import Column, table_pdf
from ratings.adapters import pool_rules
from ratings.lists.filters import ListFilterForm
from ratings.lists.table import (  # noqa: F401  (ListPrivacy: read from here by the list's faces)
    FLAT_FIELDS,
    FULL,
    FlatRow,
    ListPrivacy,
    RatingListTable,
    export_columns,
    print_cells,
    print_header,
)
from ratings.models import (
    ListEntry,
    ListKind,
    PeriodReopening,
    PeriodState,
    PublishedList,
    RatingPeriod,
    RatingPool,
)
from ratings.selectors import live_count, live_rows, published_rows
from ratings.services.cache import pool_cache_version
from ratings.services.inactivity import inactivity_cutoff
from ratings.services.lists import class_code


@dataclass
class ListSource:
    """One list (live or published) with everything its faces show."""

    pool: RatingPool
    make_rows: Callable[[], QuerySet]  # the unfiltered QuerySet (built when needed: a cached page needs none)
    year: int
    title: str
    lines: list[str]
    urls: dict[str, str]
    version: str  # changes whenever the list's content does
    file_stem: str  # the downloads' name without extension, in the page's language (``download_name``)
    live: bool
    last_modified: datetime.datetime | None = None
    context: dict = field(default_factory=dict)
    # How many rows the list has unfiltered, read from its ranks (``_ranked_count``).
    count: Callable[[], int] | None = None

    @cached_property
    def rows(self) -> QuerySet:
        return self.make_rows()


def _rules_label(pool: RatingPool) -> str:
    rules = pool_rules(pool)
    return _("Rule set %(name)s (expectation: %(expectation)s), %(category)s") % {
        "name": rules.name, "expectation": rules.expectation, "category": pool.get_category_display(),
    }


def _period_text(period: RatingPeriod | None) -> str:
    if period is None:
        return ""
    return _("Period %(start)s – %(end)s") % {
        "start": formats.date_format(period.start, "SHORT_DATE_FORMAT"),
        "end": formats.date_format(period.end, "SHORT_DATE_FORMAT"),
    }


def _inactivity_text(pool: RatingPool, plist: PublishedList | None = None) -> str:
    """The header line of the ÖSB's inactivity rule (TUWO § 27 d), when the pool applies it:
    for a period's list with its cutoff day, for the live list as what the next list will do."""
    if not pool.inactivity_years:
        return ""
    if plist is None:
        return _("The next list leaves out players without a rated game for more than %(years)d years "
                 "(ÖSB TUWO § 27 d).") % {"years": pool.inactivity_years}
    if plist.kind != ListKind.PERIOD:
        return ""
    return _("Left out: players whose last rated game was before %(date)s (more than %(years)d years, "
             "ÖSB TUWO § 27 d).") % {
        "date": formats.date_format(inactivity_cutoff(pool, plist.valid_from), "SHORT_DATE_FORMAT"),
        "years": pool.inactivity_years,
    }


def live_source(pk: int) -> ListSource:
    # The pool with its open period in one query; a pool without one is read alone. (By
    # ``pool__pk``: a key beyond the database's integers then finds no row, where the foreign
    # key's own lookup raised OverflowError.)
    period = RatingPeriod.objects.select_related("pool").filter(pool__pk=pk, state=PeriodState.OPEN).first()
    pool = period.pool if period is not None else get_object_or_404(RatingPool, pk=pk)
    today = timezone.localdate()
    lines = [
        _rules_label(pool), _period_text(period),
        _("As of %(date)s – provisional until the period is closed") % {
            "date": formats.date_format(today, "SHORT_DATE_FORMAT")},
        _inactivity_text(pool),
    ]
    urls = {name: reverse(f"ratings:live_{name}" if name != "page" else "ratings:live", args=[pool.pk])
            for name in ("page", "print", "pdf")}
    return ListSource(
        pool=pool, make_rows=lambda: live_rows(pool), year=(period.end if period else today).year,
        title=_("Live rating list: %(pool)s") % {"pool": pool.name}, lines=lines, urls=urls,
        version=f"live-{pool.pk}-{pool_cache_version(pool.pk)}-{today:%Y%m%d}-{club_data_version()}",
        file_stem=_file_stem(pgettext("file name", "Live rating list"), pool, today), live=True,
        context={"live": True, "period": period}, count=lambda: live_count(pool),
    )


def _ranked_count(rows: QuerySet, rank: str) -> int | None:
    """How many rows a list has, read from its last row's rank instead of counting them: the
    ranks of a list run 1…N without gaps (a published list's as written; the live list's kept
    with each change, ``ratings.services.live_ranks``), so one row read on the order's index
    gives what a count reads the whole pool for. ``rows``: the list's rows, last rank first;
    ``None`` when the last row has no rank."""
    last = list(rows.values_list(rank, flat=True)[:1])
    return last[0] if last else 0


def _file_stem(kind: str, pool: RatingPool, day: datetime.date, *extra: str) -> str:
    """"Wertungsliste_ÖSB_Standard_2026-07-01": what the list is, its pool, its date."""
    return download_stem(kind, pool.name, f"{day:%Y-%m-%d}", *extra)


def _changed_at(plist: PublishedList, club_changes: list[datetime.datetime | None]) -> datetime.datetime:
    """When what a published list's faces say last changed: its publication, the reopening of its
    period that withdrew it, the closing again that replaced it, or an edit of a member or club
    its rows name. Its ``Last-Modified``: a browser that asks whether the list changed since it
    last saw it is told of the withdrawal."""
    times = [plist.published_at, plist.last_reopened_at, plist.replaced_at, *club_changes]
    return max(t for t in times if t is not None)


def published_source(pk: int) -> ListSource:
    # The moments that withdrew it (its period's latest reopening, the list published when the
    # period was closed again) come with the list in its one query.
    later = PublishedList.objects.filter(period=OuterRef("period"), pk__gt=OuterRef("pk"))
    later = later.order_by("-published_at")
    reopenings = PeriodReopening.objects.filter(period=OuterRef("period")).order_by("-reopened_at")
    plist = get_object_or_404(PublishedList.objects.select_related("pool", "period").annotate(
        last_reopened_at=Subquery(reopenings.values("reopened_at")[:1]),
        replaced_at=Subquery(later.values("published_at")[:1]),
    ), pk=pk)
    club_changes = club_data_changes()
    pool = plist.pool
    lines = [
        _rules_label(pool),
        _period_text(plist.period) or plist.get_kind_display(),
        _("Valid from %(date)s") % {"date": formats.date_format(plist.valid_from, "SHORT_DATE_FORMAT")},
        _inactivity_text(pool, plist),
    ]
    if plist.early_reason:
        lines.append(_("Closed early on %(day)s: %(reason)s") % {
            "day": formats.date_format(timezone.localdate(plist.published_at), "SHORT_DATE_FORMAT"),
            "reason": plist.early_reason})
    withdrawn_text, stem = "", _file_stem(_("Rating list"), pool, plist.valid_from)
    if plist.withdrawn:
        # A withdrawn list says so first, on every face (and across every page of its PDF and
        # print-out), so that no copy passes for valid.
        withdrawn_text = (
            _("Withdrawn: the period was reopened; this list is not valid.") if plist.reopened
            else _("Withdrawn: replaced by the list published when the period was closed again; "
                   "this list is not valid."))
        stem = _file_stem(_("Rating list"), pool, plist.valid_from, pgettext("file name", "withdrawn"))
        lines.insert(0, withdrawn_text)
    urls = {name: reverse(f"ratings:list_{name}" if name != "page" else "ratings:list", args=[plist.pk])
            for name in ("page", "print", "pdf")}
    return ListSource(
        pool=pool, make_rows=lambda: published_rows(plist),
        year=plist.period.end.year if plist.period else plist.valid_from.year,
        title=_("Rating list: %(pool)s") % {"pool": pool.name}, lines=lines, urls=urls,
        # The rows show the members' current names and clubs (see ``club_data_version``).
        version=f"list-{plist.pk}-{plist.published_at.timestamp()}-{int(plist.superseded)}-{int(plist.withdrawn)}"
                f"-{club_data_version(club_changes)}",
        file_stem=stem, live=False, last_modified=_changed_at(plist, club_changes),
        context={"live": False, "plist": plist, "withdrawn_text": withdrawn_text,
                 "watermark": _("WITHDRAWN") if plist.withdrawn else ""},
        count=lambda: _ranked_count(ListEntry.objects.filter(list=plist).order_by("-rank"), "rank"),
    )


def list_source(pk: int, *, live: bool) -> ListSource:
    """The live list of pool ``pk`` or the published list ``pk``."""
    return live_source(pk) if live else published_source(pk)


def club_names() -> list[str]:
    return list(Club.objects.order_by("name").values_list("name", flat=True))


def list_filters(query: QueryDict, clubs: list[str] | None = None, privacy: ListPrivacy = FULL
                 ) -> ListFilterForm:
    """The filter form bound to ``query`` (unbound without any parameter), without the filters
    of columns the reader does not get (sex; the age groups where birth years are not public)."""
    hidden = ["age" if name == "birth_year" else name for name in privacy.hidden]
    return ListFilterForm(query or None, clubs=club_names() if clubs is None else clubs, hidden=hidden)


def list_table(source: ListSource, filters: ListFilterForm, query: QueryDict, privacy: ListPrivacy = FULL
               ) -> RatingListTable:
    """The list's table, filtered and in the order ``query`` asks for ("sort"); not paginated
    (the page paginates it)."""
    rows = filters.filter(source.rows, year=source.year, private=not privacy.full)
    table = RatingListTable(rows, live_pool=source.pool if source.live else None,
                            privacy=privacy,
                            exclude=privacy.hidden,
                            count=None if filters.is_filtered() else source.count)
    order = [field for field in query.getlist(table.prefixed_order_by_field)
             if field.lstrip("-") not in privacy.hidden]
    if order:
        table.order_by = order
    return table


def export_rows(source: ListSource, table: RatingListTable) -> Iterator[FlatRow]:
    """The rows of an export or print-out in the table's order, read in chunks as plain values
    (``ratings.lists.table.FlatRow``: no model instances for tens of thousands of rows); live rows
    get their classes as they stream (their ranks are stored with them)."""
    queryset = table.data.data.values_list(*FLAT_FIELDS)
    for values in queryset.iterator(chunk_size=2000):
        row = FlatRow(*values)
        table.privacy.limit(row)
        if source.live:
            row.list_class = class_code(source.pool, row.list_rating)
        yield row


def list_export(source: ListSource, query: QueryDict, fmt: str, privacy: ListPrivacy = FULL):
    """The CSV or XLSX file of the list as ``query`` filters and sorts it."""
    table = list_table(source, list_filters(query, privacy=privacy), query, privacy)
    columns = export_columns(privacy.hidden)
    withdrawn = source.context.get("withdrawn_text")
    if withdrawn:
        # A withdrawn list's file says so on every row: a copy saved away cannot pass for valid.
        columns = [ExportColumn(_("Status"), lambda row: withdrawn), *columns]
    return export_response(
        fmt, name=[source.file_stem], sheet=_("Rating list"),
        columns=columns, rows=export_rows(source, table),
    )


def empty_columns(rows) -> list[str]:
    """Columns without any value; left out on paper so that A4 portrait keeps every column."""
    found = rows.aggregate(
        title=Count("pk", filter=~Q(member__fide_title="")),
        markers=Count("pk", filter=~Q(list_markers="")),
        change=Count("pk", filter=Q(list_change__isnull=False)),
        period_games=Count("pk", filter=Q(list_period_games__gt=0)),
    )
    return [name for name, count in found.items() if not count]


def list_pdf(source: ListSource, query: QueryDict, privacy: ListPrivacy = FULL) -> bytes:
    """The list as PDF, drawn by ReportLab (``clubrating.core.table_pdf``): the print layout's
    columns, header lines and running header, in seconds for a federation's 20,000 rows where
    WeasyPrint's HTML layout needs minutes (docs/benchmarks.md). Names and clubs are printed in
    full; a withdrawn list is marked across every page."""
    filters = list_filters(query, privacy=privacy)
    table = list_table(source, filters, query, privacy)
    columns = print_header(empty_columns(table.data.data) + privacy.hidden)
    context = print_context(club_name=home_club_name(), title=source.title,
                            lines=[*source.lines, filters.description()])
    return table_pdf(
        title=source.title, club=context["print_club"], lines=context["print_lines"],
        columns=[Column(header, numeric=numeric, shrinks=name in ("name", "club"))
                 for name, header, numeric in columns],
        rows=(print_cells(record, columns) for record in export_rows(source, table)),
        note=_("Live ratings are provisional: published rating plus the rounded changes of the open period.")
        if source.live else "",
        page_text=_("Page %(page)d of %(pages)d"),
        watermark=source.context.get("watermark", ""),
    )
