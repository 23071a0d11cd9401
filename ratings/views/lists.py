"""Rating lists: the pools overview, the live list and every published list of a pool.

Each list has four faces: the page (filter, sort, paginate), a print layout, a PDF and the
CSV/XLSX exports. A list is read with one query into ``ListRow`` objects; filtering, sorting,
printing and exporting work on those rows, so the query count does not depend on the rows.
"""

from __future__ import annotations

import datetime

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from clubrating.core.pdf import print_context, render_pdf_response, safe_filename
from clubrating.core.permissions import is_rating_officer, public_ratings_required
from ratings.adapters import pool_rules
from ratings.forms import ListFilterForm
from ratings.models import ListEntry, PeriodState, PoolMember, PublishedList, RatingPeriod, RatingPool
from ratings.services.lists import class_code
from ratings.tables import ListRow, PrintRatingListTable, RatingListTable

PER_PAGE = 100
EXPORT_FORMATS = ("csv", "xlsx")


def _member_fields(member) -> dict:
    return {
        "member": member,
        "name": member.full_name,
        "title": member.fide_title,
        "club": member.club.name if member.club else "",
        "birth_year": member.year_of_birth,
        "sex": member.sex,
        "active": member.active,
    }


def published_rows(plist: PublishedList) -> list[ListRow]:
    entries = ListEntry.objects.filter(list=plist).select_related("member__club").order_by("rank")
    return [
        ListRow(
            rank=e.rank, rating=e.rating, change=e.change, games=e.games_count,
            period_games=e.period_games, markers=e.markers, class_code=e.class_code,
            **_member_fields(e.member),
        )
        for e in entries
    ]


def live_rows(pool: RatingPool) -> list[ListRow]:
    """Published rating + the open period's rounded changes; newcomers appear once they would
    get a start value (as ``ratings.selectors.live_list``)."""
    states = (
        PoolMember.objects.filter(pool=pool, live_rating__isnull=False).select_related("member__club")
    )
    rows = []
    for state in states:
        rating = state.live_rating
        rows.append(ListRow(
            rank=0, rating=rating, change=state.live_change if state.live_games else None,
            games=state.games_count + state.live_games, period_games=state.live_games,
            markers="" if state.rating is not None else "N",
            class_code=class_code(pool, rating),
            provisional=bool(state.live_games), **_member_fields(state.member),
        ))
    # Ranked like a published list (ratings.services.lists.list_publish): rating, then name.
    rows.sort(key=lambda r: (
        -r.rating, r.member.last_name.casefold(), r.member.first_name.casefold(), r.member.pk))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return rows


def _rules_label(pool: RatingPool) -> str:
    rules = pool_rules(pool)
    return _("Rule set %(name)s (expectation: %(expectation)s), %(category)s") % {
        "name": rules.name, "expectation": rules.expectation, "category": pool.get_category_display(),
    }


def _render_list(request, *, pool, rows, year, title, lines, urls, template_context):
    filters = ListFilterForm(request.GET or None, clubs=sorted({r.club for r in rows if r.club}))
    rows = filters.filter(rows, year=year)
    lines = [*lines, filters.description()]
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("_export", None)
    suffix = f"?{query.urlencode()}" if query else ""
    mode = template_context.pop("mode")
    base_name = safe_filename(f"{pool.name}-{template_context.get('file_stem', 'list')}")
    if mode in ("print", "pdf"):
        table = PrintRatingListTable(rows, exclude=_empty_columns(rows))
        context = {
            **template_context, "pool": pool, "table": table,
            **print_context(title=title, lines=lines, back_url=urls["page"] + suffix,
                            pdf_url=urls["pdf"] + suffix),
        }
        if mode == "pdf":
            return render_pdf_response(request, "ratings/list_print.html", context, f"{base_name}.pdf")
        return render(request, "ratings/list_print.html", context)
    table = RatingListTable(rows)
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        RequestConfig(request, paginate=False).configure(table)
        exporter = TableExport(export_format, table)
        withdrawn = template_context.get("withdrawn_text")
        if withdrawn:
            # A withdrawn list's file says so on every row: a copy saved away cannot pass for valid.
            exporter.dataset.insert_col(0, [withdrawn] * exporter.dataset.height, header=_("Status"))
        return exporter.response(f"{base_name}.{export_format}")
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "ratings/list.html", {
        **template_context, "pool": pool, "table": table, "filters": filters, "title": title,
        "lines": lines, "suffix": suffix, "urls": urls,
        "export_csv": f"?{_with(query, '_export', 'csv')}",
        "export_xlsx": f"?{_with(query, '_export', 'xlsx')}",
        "user_is_rating_officer": is_rating_officer(request.user),
    })


def _empty_columns(rows: list[ListRow]) -> list[str]:
    """Columns without any value; left out on paper so that A4 portrait keeps every column."""
    checks = {
        "title": lambda r: r.title, "markers": lambda r: r.markers,
        "change": lambda r: r.change is not None, "period_games": lambda r: r.period_games,
    }
    return [name for name, has_value in checks.items() if not any(has_value(r) for r in rows)]


def _with(query, key, value) -> str:
    query = query.copy()
    query[key] = value
    return query.urlencode()


def _period_text(period: RatingPeriod | None) -> str:
    if period is None:
        return ""
    return _("Period %(start)s – %(end)s") % {
        "start": formats.date_format(period.start, "SHORT_DATE_FORMAT"),
        "end": formats.date_format(period.end, "SHORT_DATE_FORMAT"),
    }


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


def _live(request, pk: int, mode: str):
    pool = get_object_or_404(RatingPool, pk=pk)
    period = RatingPeriod.objects.filter(pool=pool, state=PeriodState.OPEN).first()
    today = datetime.date.today()
    title = _("Live rating list: %(pool)s") % {"pool": pool.name}
    lines = [
        _rules_label(pool), _period_text(period),
        _("As of %(date)s – provisional until the period is closed") % {
            "date": formats.date_format(today, "SHORT_DATE_FORMAT")},
    ]
    urls = {name: reverse(f"ratings:live_{name}" if name != "page" else "ratings:live", args=[pool.pk])
            for name in ("page", "print", "pdf")}
    return _render_list(
        request, pool=pool, rows=live_rows(pool), year=(period.end if period else today).year,
        title=title, lines=lines, urls=urls,
        template_context={
            "mode": mode, "live": True, "period": period, "file_stem": f"live-{today:%Y-%m-%d}"},
    )


def _published(request, pk: int, mode: str):
    plist = get_object_or_404(PublishedList.objects.select_related("pool", "period"), pk=pk)
    pool = plist.pool
    title = _("Rating list: %(pool)s") % {"pool": pool.name}
    lines = [
        _rules_label(pool),
        _period_text(plist.period) or plist.get_kind_display(),
        _("Valid from %(date)s") % {"date": formats.date_format(plist.valid_from, "SHORT_DATE_FORMAT")},
    ]
    if plist.superseded:
        lines.append(_("Superseded by a republished list"))
    withdrawn_text, stem = "", f"{plist.valid_from:%Y-%m-%d}"
    if plist.withdrawn:
        stem += "-withdrawn"
        withdrawn_text = _("Withdrawn: the period was reopened; this list is not valid.")
        lines.insert(0, withdrawn_text)
    urls = {name: reverse(f"ratings:list_{name}" if name != "page" else "ratings:list", args=[plist.pk])
            for name in ("page", "print", "pdf")}
    year = plist.period.end.year if plist.period else plist.valid_from.year
    return _render_list(
        request, pool=pool, rows=published_rows(plist), year=year, title=title, lines=lines, urls=urls,
        template_context={"mode": mode, "live": False, "plist": plist, "withdrawn_text": withdrawn_text,
                          "file_stem": stem},
    )


@public_ratings_required
def live_list(request, pk):
    return _live(request, pk, "page")


@public_ratings_required
def live_print(request, pk):
    return _live(request, pk, "print")


@public_ratings_required
def live_pdf(request, pk):
    return _live(request, pk, "pdf")


@public_ratings_required
def published_list(request, pk):
    return _published(request, pk, "page")


@public_ratings_required
def published_print(request, pk):
    return _published(request, pk, "print")


@public_ratings_required
def published_pdf(request, pk):
    return _published(request, pk, "pdf")
