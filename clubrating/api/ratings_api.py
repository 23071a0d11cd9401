"""Pools, the live list and the published lists: the list pages' own sources, filters, order,
pages and validators (``ratings.lists.faces``, ``ratings.views.lists``)."""

from __future__ import annotations

import hashlib
from typing import Literal

from django.core.cache import cache
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema
from pydantic import Field

from clubrating.core.formatting import rating_value
from ratings.lists.faces import ListPrivacy, ListSource, list_filters, list_source, list_table
from ratings.lists.filters import ListFilterForm
from ratings.lists.http import ETAG_SCHEMA, PER_PAGE, TABLE_CACHE_SECONDS, list_conditional, list_privacy
from ratings.lists.table import FlatRow, RatingListTable
from ratings.selectors import pools_overview

from . import schemas
from .responses import JSON, body, documented, json_response, refuse, refuse_parameters, require_ratings

router = Router(tags=["ratings"])


class ListQuery(Schema):
    """The list page's own parameters: a page URL's query string works here as it is."""

    page: int = 1
    sort: str = Field("", description="A column of the page, '-' first for descending: rating, name, "
                                      "club, birth_year, change, games, … (an unknown column: 422).",
                      examples=["-change"])
    club: str = Field("", description="A club's name, as /clubs gives it (an unknown club: 422).",
                      examples=["SK Donaustadt"])
    name: str = ""
    age: Literal["", "U8", "U10", "U12", "U14", "U16", "U18", "S65"] = Field(
        "", description="Age group by birth year relative to the list's year: U8 … U18 (not yet 8 … 18 "
                        "on 1 January), S65 (65 or older during the year). Only where the site shows "
                        "birth years to this reader; otherwise a 422 names it.", examples=["U12"])
    active: bool = False


def list_row(record, privacy: ListPrivacy) -> schemas.ListRow:
    """One row of a list page as the page shows it (``ListPrivacy.limit``: a restricted profile's
    row keeps the name and the ratings only for a reader who is not an official)."""
    row = FlatRow(
        record.member_id, record.rank, record.member.last_name, record.member.first_name,
        record.member.fide_title, record.list_club, record.list_birth_year, record.member.sex,
        record.list_rating, record.list_change, record.list_games, record.list_period_games,
        record.list_markers, record.list_class, record.provisional, record.list_restricted,
    )
    privacy.limit(row)
    return schemas.ListRow(
        rank=row.rank, member_id=row.member_id, name=row.name, title=row.title or None, club=row.club,
        birth_year=row.birth_year,
        rating=rating_value(row.list_rating), change=rating_value(row.list_change), games=row.list_games,
        period_games=row.list_period_games, markers=row.list_markers, class_code=row.list_class,
        provisional=row.provisional,
    )


def list_page(request: HttpRequest, source: ListSource) -> HttpResponse:
    """One page (``PER_PAGE`` rows, as the page) of the list, filtered and sorted as the page
    would; a 304 when the client has it (the list page's ETag and cache lifetime)."""
    privacy = list_privacy(request)
    filters = list_filters(request.GET, privacy=privacy)
    # The page ignores what it does not offer this reader (a club that is no more, a column to
    # sort by that is not there, the sex or age filter a visitor does not get); an API says so.
    refused = set(filters.errors) if filters.is_bound and not filters.is_valid() else set()
    refused |= (set(ListFilterForm.base_fields) - set(filters.fields)) & set(request.GET)
    sortable = {name for name, column in RatingListTable.base_columns.items()
                if column.orderable is not False and name not in privacy.hidden}
    if any(value.removeprefix("-") not in sortable for value in request.GET.getlist("sort")):
        refused.add("sort")
    if refused:
        refuse_parameters(refused)
    # The answer for this list version, query, language and reader, kept as the list page keeps
    # its table (``TABLE_CACHE_SECONDS``): a club's website asking every minute costs one read.
    key = "api:list:" + hashlib.sha256("|".join([
        ETAG_SCHEMA, source.version, translation.get_language() or "", request.GET.urlencode(), privacy.key,
    ]).encode()).hexdigest()

    def build() -> HttpResponse:
        content = cache.get(key)
        if content is None:
            content = render()
            cache.set(key, content, TABLE_CACHE_SECONDS)
        return HttpResponse(content, content_type=JSON)

    def render() -> bytes:
        table = list_table(source, filters, request.GET, privacy)
        try:
            table.paginate(page=request.GET.get("page", 1), per_page=PER_PAGE)
        except (EmptyPage, PageNotAnInteger):
            refuse(_("There is no such page of this list."), 404)
        plist = source.context.get("plist")
        return body(schemas.RatingList(
            pool_id=source.pool.pk, list_id=plist.pk if plist else None, live=source.live,
            title=source.title, valid_from=plist.valid_from if plist else None,
            withdrawn=bool(plist and plist.withdrawn),
            count=table.paginator.count, page=table.page.number, pages=table.paginator.num_pages,
            per_page=PER_PAGE, results=[list_row(row.record, privacy) for row in table.page.object_list],
        ))

    return list_conditional(request, source, "api", build)


@router.get("/pools", response=list[schemas.Pool], summary="Rating pools and their lists",
            openapi_extra=documented(304, 403, 429))
def pools(request: HttpRequest):
    """Every pool with its open period and every list it published, as the lists overview shows
    them: the list in force today, and which lists are withdrawn."""
    require_ratings(request)
    result = []
    for entry in pools_overview(timezone.localdate()):
        pool, period = entry.pool, entry.period
        result.append(schemas.Pool(
            id=pool.pk, name=pool.name, category=pool.category, rules=pool.rules,
            expectation=pool.expectation, start_date=pool.start_date,
            open_period=schemas.Period(start=period.start, end=period.end) if period else None,
            list_in_force=pool.published_pk,
            lists=[schemas.ListSummary(
                id=plist.pk, kind=plist.kind, valid_from=plist.valid_from, published_at=plist.published_at,
                in_force=plist.valid, superseded=plist.superseded, withdrawn=plist.withdrawn,
            ) for plist in entry.lists],
        ))
    return json_response(request, result)


@router.get("/pools/{pool_id}/live", response=schemas.RatingList, summary="The live list of a pool",
            openapi_extra=documented(304, 403, 404, 422, 429))
def live_list(request: HttpRequest, pool_id: int, query: Query[ListQuery]):
    """Published rating plus the open period's rounded changes, provisional until the period is
    closed; ranks are those in the whole list, also when filtered."""
    require_ratings(request)
    return list_page(request, list_source(pool_id, live=True))


@router.get("/lists/{list_id}", response=schemas.RatingList, summary="A published rating list",
            openapi_extra=documented(304, 403, 404, 422, 429))
def published_list(request: HttpRequest, list_id: int, query: Query[ListQuery]):
    """A published list's rows never change; its ETag and Last-Modified change when reopening its
    period withdraws it or closing the period again replaces it (revalidated on every use)."""
    require_ratings(request)
    return list_page(request, list_source(list_id, live=False))
