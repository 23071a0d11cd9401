"""Rating lists: the pools overview, the live list and every published list of a pool.

Each list has four faces: the page (filter, sort, paginate), a print layout, a PDF and the
CSV/XLSX exports; the list itself, its filters and order come from ``ratings.lists.faces`` for all
of them (and for the PDF job). A published list never changes, so its faces carry an
``ETag``/``Last-Modified`` and may be cached; the live list's ETag and cached table follow the
pool's cache version (``ratings.services.cache``), which every rating change bumps.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django_tables2 import RequestConfig

from clubrating.accounts.permissions import (
    is_rating_officer,
    public_ratings_required,
)
from clubrating.clubs.selectors import home_club_name
from clubrating.core.exports import EXPORT_FORMATS
from clubrating.core.pdf import pdf_response, print_context, streamed_print
from ratings.lists.faces import (
    ListSource,
    club_names,
    empty_columns,
    export_rows,
    list_export,
    list_filters,
    list_pdf,
    list_source,
    list_table,
)
from ratings.lists.filters import ListFilterForm
from ratings.lists.http import (
    PER_PAGE,
    TABLE_CACHE_SECONDS,
    list_conditional,
    list_etag,
    list_privacy,
)
from ratings.lists.table import (
    RatingListTable,
    print_header,
    print_row_html,
)
from ratings.selectors import pools_overview
from ratings.views.pdf_jobs import list_pdf_job


def _query_suffix(request) -> tuple[object, str]:
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("_export", None)
    return query, (f"?{query.urlencode()}" if query else "")


def _with(query, key, value) -> str:
    query = query.copy()
    query[key] = value
    return query.urlencode()


def _filters(request, clubs: list[str] | None = None) -> ListFilterForm:
    return list_filters(request.GET, clubs, list_privacy(request))


def _table(request, source: ListSource, filters: ListFilterForm, *, paginate) -> RatingListTable:
    table = list_table(source, filters, request.GET, list_privacy(request))
    RequestConfig(request, paginate=paginate).configure(table)
    return table


def _filters_html(filters: ListFilterForm, sort: str) -> str:
    """The filter form, cached: Django renders each of a federation's hundreds of club options
    through a template, which took most of a cached list page's time. It keeps the list's order
    (``sort``); filtering starts again at the first page."""
    clubs = "|".join(name for name, _label in filters.fields["club"].choices)
    chosen = [str(filters[name].value()) for name in filters.fields]  # not the page
    key = "ratings:list-filters:" + hashlib.sha256(
        "|".join([translation.get_language() or "", *chosen, sort, clubs, ",".join(filters.fields)]).encode()
    ).hexdigest()
    html = cache.get(key)
    if html is None:
        html = render_to_string("ratings/_list_filters.html", {"filters": filters, "sort": sort})
        cache.set(key, html, TABLE_CACHE_SECONDS)
    return mark_safe(html)  # rendered by the template above, escaped there


def _page(request, source: ListSource):
    """The list page: its content (everything but the site's frame, the same for every reader)
    cached per list version, query and language (``list_etag``) and the clubs the filter offers."""
    clubs = club_names()
    key = "ratings:list-page:" + hashlib.sha256(
        "|".join([list_etag(request, source, "page", per_user=False), *clubs]).encode()
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
    """The content of a list page, built afresh (``_page`` caches it, with the table: the
    table's HTML is not kept apart, as every change of the list changes both)."""
    query, suffix = _query_suffix(request)
    table_html = _table(request, source, filters, paginate={"per_page": PER_PAGE}).as_html(request)
    return render_to_string("ratings/_list_content.html", {
        **source.context, "pool": source.pool, "table_html": table_html,
        "filters_html": _filters_html(filters, request.GET.get("sort", "")),
        "title": source.title, "lines": [*source.lines, filters.description()], "suffix": suffix,
        "urls": source.urls,
        "export_csv": f"?{_with(query, '_export', 'csv')}",
        "export_xlsx": f"?{_with(query, '_export', 'xlsx')}",
    }, request=request)


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
    columns = print_header(empty_columns(rows) + list_privacy(request).hidden)
    context.update({"pdf": False, "print_columns": columns})
    return streamed_print(request, "ratings/list_print.html", context,
                          (print_row_html(record, columns) for record in export_rows(source, table)))


def _face(request, pk: int, face: str):
    source = list_source(pk, live=face.startswith("live"))
    pdf_face = face
    face = face.removeprefix("live_")
    if face == "page" and request.GET.get("_export") in EXPORT_FORMATS:
        face = request.GET["_export"]

    def build():
        if face in EXPORT_FORMATS:
            return list_export(source, request.GET, face, list_privacy(request))
        if face == "print":
            return StreamingHttpResponse(_print_parts(request, source),
                                         content_type="text/html; charset=utf-8")
        if face == "pdf":
            if _table(request, source, _filters(request), paginate=False).data.data.count() > (
                settings.BACKGROUND_PDF_ROWS
            ):
                return list_pdf_job(request, face=pdf_face, pk=pk, title=source.title,
                                    privacy=list_privacy(request),
                                    etag=list_etag(request, source, "pdf", per_user=False))
            return pdf_response(list_pdf(source, request.GET, list_privacy(request)),
                                f"{source.file_stem}.pdf")
        return _page(request, source)

    return list_conditional(request, source, face, build)


@public_ratings_required
def pool_list(request):
    """Every pool with its live list and every list it published, each marked as it stands
    today: in force, valid from a later day, withdrawn (its period reopened, or the list replaced
    by the one published when the period was closed again), or earlier."""
    rows = [(entry.pool, entry.period, entry.lists) for entry in pools_overview(timezone.localdate())]
    return render(request, "ratings/pool_list.html", {
        "pools": rows, "user_is_rating_officer": is_rating_officer(request.user),
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

