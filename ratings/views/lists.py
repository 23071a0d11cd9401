"""Rating lists: the pools overview, the live list and every published list of a pool.

Each list has four faces: the page (filter, sort, paginate), a print layout, a PDF and the
CSV/XLSX exports. Filtering, sorting, paging and counting happen in SQL on
``ratings.selectors.published_rows``/``live_rows``; the print layout and the exports stream the
rows. A published list never changes, so its faces carry an ``ETag``/``Last-Modified`` and may
be cached; the live list's ETag and cached table follow the pool's cache version
(``ratings.services.cache``), which every rating change bumps.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q, QuerySet
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django_tables2 import RequestConfig

from clubrating.accounts.permissions import is_rating_officer, public_ratings_required
from clubrating.clubs.models import Club
from clubrating.clubs.selectors import club_data_version, home_club_name
from clubrating.core.downloads import download_stem
from clubrating.core.exports import EXPORT_FORMATS, ExportColumn, export_response
from clubrating.core.pdf import pdf_response, print_context, streamed_print
from clubrating.core.table_pdf import Column, table_pdf
from ratings.adapters import pool_rules
from ratings.forms import ListFilterForm
from ratings.models import ListKind, PeriodState, PublishedList, RatingPeriod, RatingPool
from ratings.selectors import live_ranks, live_rows, published_rows
from ratings.services.cache import pool_cache_version
from ratings.services.inactivity import inactivity_cutoff
from ratings.services.lists import class_code
from ratings.tables import (
    FLAT_FIELDS,
    FlatRow,
    RatingListTable,
    export_columns,
    print_cells,
    print_header,
    print_row_html,
)
from ratings.views.pdf_jobs import list_pdf_job

PER_PAGE = 100
PUBLISHED_MAX_AGE = 24 * 3600  # a published list is immutable; only its "superseded" note may change
TABLE_CACHE_SECONDS = 3600
ETAG_SCHEMA = "4"  # change when the pages' markup changes, so that browsers fetch them again


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


def _file_stem(kind: str, pool: RatingPool, day: datetime.date, *extra: str) -> str:
    """"Wertungsliste_ÖSB_Standard_2026-07-01": what the list is, its pool, its date."""
    return download_stem(kind, pool.name, f"{day:%Y-%m-%d}", *extra)


def _live_source(pk: int) -> ListSource:
    # The pool with its open period in one query; a pool without one is read alone.
    period = RatingPeriod.objects.select_related("pool").filter(pool_id=pk, state=PeriodState.OPEN).first()
    pool = period.pool if period is not None else get_object_or_404(RatingPool, pk=pk)
    today = datetime.date.today()
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
        context={"live": True, "period": period},
    )


def _published_source(pk: int) -> ListSource:
    plist = get_object_or_404(PublishedList.objects.select_related("pool", "period"), pk=pk)
    pool = plist.pool
    lines = [
        _rules_label(pool),
        _period_text(plist.period) or plist.get_kind_display(),
        _("Valid from %(date)s") % {"date": formats.date_format(plist.valid_from, "SHORT_DATE_FORMAT")},
        _inactivity_text(pool, plist),
    ]
    if plist.superseded:
        lines.append(_("Superseded by a republished list"))
    withdrawn_text, stem = "", _file_stem(_("Rating list"), pool, plist.valid_from)
    if plist.withdrawn:
        # A list whose period was reopened says so first, on every face, so no copy passes for valid.
        withdrawn_text = _("Withdrawn: the period was reopened; this list is not valid.")
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
                f"-{club_data_version()}",
        file_stem=stem, live=False, last_modified=plist.published_at,
        context={"live": False, "plist": plist, "withdrawn_text": withdrawn_text},
    )


def _etag(request, source: ListSource, face: str, *, per_user: bool = True) -> str:
    """The validator of one face of a list for this query and language (and user: the page's
    navigation names the user)."""
    user = request.user
    parts = [ETAG_SCHEMA, face, source.version, translation.get_language() or "", request.GET.urlencode(),
             str(user.pk if per_user and user.is_authenticated else "")]
    return '"' + hashlib.sha256("|".join(parts).encode()).hexdigest()[:32] + '"'


def _conditional(request, source: ListSource, face: str, build):
    """A 304 when the browser has this face of this list already; otherwise ``build()``, with
    the validators and the cache lifetime (long for a published list, revalidated for the live one)."""
    etag = _etag(request, source, face)
    last_modified = int(source.last_modified.timestamp()) if source.last_modified else None
    response = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if response is None:
        response = build()
    response.headers["ETag"] = etag
    if source.last_modified is not None:
        response.headers["Last-Modified"] = http_date(last_modified)
    if source.live:
        patch_cache_control(response, private=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, max_age=PUBLISHED_MAX_AGE)
    return response


def _query_suffix(request) -> tuple[object, str]:
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("_export", None)
    return query, (f"?{query.urlencode()}" if query else "")


def _with(query, key, value) -> str:
    query = query.copy()
    query[key] = value
    return query.urlencode()


def _club_names() -> list[str]:
    return list(Club.objects.order_by("name").values_list("name", flat=True))


def _filters(request, clubs: list[str] | None = None) -> ListFilterForm:
    return ListFilterForm(request.GET or None, clubs=_club_names() if clubs is None else clubs)


def _table(request, source: ListSource, filters: ListFilterForm, *, paginate) -> RatingListTable:
    rows = filters.filter(source.rows, year=source.year)
    table = RatingListTable(rows, live_pool=source.pool if source.live else None,
                            unfiltered=not filters.is_filtered())
    RequestConfig(request, paginate=paginate).configure(table)
    return table


def _filters_html(filters: ListFilterForm) -> str:
    """The filter form, cached: Django renders each of a federation's hundreds of club options
    through a template, which took most of a cached list page's time."""
    clubs = "|".join(name for name, _label in filters.fields["club"].choices)
    chosen = [str(filters[name].value()) for name in filters.fields]  # not the page or the order
    key = "ratings:list-filters:" + hashlib.sha256(
        "|".join([translation.get_language() or "", *chosen, clubs]).encode()
    ).hexdigest()
    html = cache.get(key)
    if html is None:
        html = render_to_string("ratings/_list_filters.html", {"filters": filters})
        cache.set(key, html, TABLE_CACHE_SECONDS)
    return mark_safe(html)  # rendered by the template above, escaped there


def _page(request, source: ListSource):
    """The list page: its content (everything but the site's frame, the same for every reader)
    cached per list version, query and language (``_etag``) and the clubs the filter offers."""
    clubs = _club_names()
    key = "ratings:list-page:" + hashlib.sha256(
        "|".join([_etag(request, source, "page", per_user=False), *clubs]).encode()
    ).hexdigest()
    content_html = cache.get(key)
    if content_html is None:
        content_html = _content_html(request, source, _filters(request, clubs))
        cache.set(key, content_html, TABLE_CACHE_SECONDS)
    return render(request, "ratings/list.html", {
        "title": source.title, "content_html": mark_safe(content_html),  # escaped by its template
        "user_is_rating_officer": is_rating_officer(request.user),
    })


def _content_html(request, source: ListSource, filters: ListFilterForm) -> str:
    query, suffix = _query_suffix(request)
    key = "ratings:list-table:" + _etag(request, source, "table", per_user=False).strip('"')
    table_html = cache.get(key)
    if table_html is None:
        table = _table(request, source, filters, paginate={"per_page": PER_PAGE})
        table_html = table.as_html(request)
        cache.set(key, table_html, TABLE_CACHE_SECONDS)
    return render_to_string("ratings/_list_content.html", {
        **source.context, "pool": source.pool, "table_html": table_html,
        "filters_html": _filters_html(filters),
        "title": source.title, "lines": [*source.lines, filters.description()], "suffix": suffix,
        "urls": source.urls,
        "export_csv": f"?{_with(query, '_export', 'csv')}",
        "export_xlsx": f"?{_with(query, '_export', 'xlsx')}",
    }, request=request)


def _export_rows(source: ListSource, table: RatingListTable):
    """The rows of an export or print-out in the table's order, read in chunks as plain values
    (``ratings.tables.FlatRow``: no model instances for tens of thousands of rows); live rows
    get their ranks (one query for the whole list) and classes as they stream."""
    queryset = table.data.data.values_list(*FLAT_FIELDS)
    ranks = live_ranks(source.pool) if source.live else None
    for values in queryset.iterator(chunk_size=2000):
        row = FlatRow(*values)
        if ranks is not None:
            row.rank = ranks.get(row.member_id)
            row.list_class = class_code(source.pool, row.list_rating)
        yield row


def _export(request, source: ListSource, fmt: str):
    table = _table(request, source, _filters(request), paginate=False)
    columns = export_columns()
    withdrawn = source.context.get("withdrawn_text")
    if withdrawn:
        # A withdrawn list's file says so on every row: a copy saved away cannot pass for valid.
        columns = [ExportColumn(_("Status"), lambda row: withdrawn), *columns]
    return export_response(
        fmt, name=[source.file_stem], sheet=_("Rating list"),
        columns=columns, rows=_export_rows(source, table),
    )


def _empty_columns(rows) -> list[str]:
    """Columns without any value; left out on paper so that A4 portrait keeps every column."""
    found = rows.aggregate(
        title=Count("pk", filter=~Q(member__fide_title="")),
        markers=Count("pk", filter=~Q(list_markers="")),
        change=Count("pk", filter=Q(list_change__isnull=False)),
        period_games=Count("pk", filter=Q(list_period_games__gt=0)),
    )
    return [name for name, count in found.items() if not count]


def _print_parts(request, source: ListSource):
    """The print layout in pieces: the page head, the table rows in chunks, the page end."""
    filters = _filters(request)
    _query, suffix = _query_suffix(request)
    table = _table(request, source, filters, paginate=False)
    rows = table.data.data
    context = {
        **source.context, "pool": source.pool,
        **print_context(club_name=home_club_name(), title=source.title,
                        lines=[*source.lines, filters.description()],
                        back_url=source.urls["page"] + suffix, pdf_url=source.urls["pdf"] + suffix),
    }
    columns = print_header(_empty_columns(rows))
    context.update({"pdf": False, "print_columns": columns})
    return streamed_print(request, "ratings/list_print.html", context,
                          (print_row_html(record, columns) for record in _export_rows(source, table)))


def list_pdf(request, source: ListSource) -> bytes:
    """The list as PDF, drawn by ReportLab (``clubrating.core.table_pdf``): the print layout's
    columns, header lines and running header, in seconds for a federation's 20,000 rows where
    WeasyPrint's HTML layout needs minutes (README, Benchmarks)."""
    filters = _filters(request)
    table = _table(request, source, filters, paginate=False)
    columns = print_header(_empty_columns(table.data.data))
    context = print_context(club_name=home_club_name(), title=source.title,
                            lines=[*source.lines, filters.description()])
    return table_pdf(
        title=source.title, club=context["print_club"], lines=context["print_lines"],
        columns=[Column(header, numeric=numeric, shrinks=name in ("name", "club"))
                 for name, header, numeric in columns],
        rows=(print_cells(record, columns) for record in _export_rows(source, table)),
        note=_("Live ratings are provisional: published rating plus the rounded changes of the open period.")
        if source.live else "",
        page_text=_("Page %(page)d of %(pages)d"),
    )


def _face(request, pk: int, face: str):
    source = _live_source(pk) if face.startswith("live") else _published_source(pk)
    pdf_face = face
    face = face.removeprefix("live_")
    if face == "page" and request.GET.get("_export") in EXPORT_FORMATS:
        face = request.GET["_export"]

    def build():
        if face in EXPORT_FORMATS:
            return _export(request, source, face)
        if face == "print":
            return StreamingHttpResponse(_print_parts(request, source),
                                         content_type="text/html; charset=utf-8")
        if face == "pdf":
            if _table(request, source, _filters(request), paginate=False).data.data.count() > (
                settings.BACKGROUND_PDF_ROWS
            ):
                return list_pdf_job(request, face=pdf_face, pk=pk, title=source.title,
                                    etag=_etag(request, source, "pdf", per_user=False))
            return pdf_response(list_pdf(request, source), f"{source.file_stem}.pdf")
        return _page(request, source)

    return _conditional(request, source, face, build)


@public_ratings_required
def pool_list(request):
    pools = RatingPool.objects.order_by("name")
    # Withdrawn lists (period reopened) stay listed, marked; the valid list is the latest in force.
    lists = (
        PublishedList.objects.filter(superseded=False).select_related("period")
        .order_by("pool", "-valid_from", "-pk")
    )
    periods = RatingPeriod.objects.filter(state=PeriodState.OPEN)
    by_pool: dict[int, list] = {}
    valid: set[int] = set()
    for plist in lists:
        by_pool.setdefault(plist.pool_id, []).append(plist)
        if plist.pool_id not in valid and not plist.withdrawn:
            valid.add(plist.pool_id)
            plist.valid = True
    open_periods = {p.pool_id: p for p in periods}
    return render(request, "ratings/pool_list.html", {
        "pools": [(pool, open_periods.get(pool.pk), by_pool.get(pool.pk, [])) for pool in pools],
        "user_is_rating_officer": is_rating_officer(request.user),
    })


@public_ratings_required
def live_list(request, pk):
    return _face(request, pk, "live_page")


@public_ratings_required
def live_print(request, pk):
    return _face(request, pk, "live_print")


@public_ratings_required
def live_pdf(request, pk):
    return _face(request, pk, "live_pdf")


@public_ratings_required
def published_list(request, pk):
    return _face(request, pk, "page")


@public_ratings_required
def published_print(request, pk):
    return _face(request, pk, "print")


@public_ratings_required
def published_pdf(request, pk):
    return _face(request, pk, "pdf")

