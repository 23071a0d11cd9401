"""Clubs and members: only what the member list and the member page show this reader
(``clubrating.clubs.privacy`` through the pages' own viewer, ``clubrating.accounts``)."""

from __future__ import annotations

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema
from pydantic import field_validator

from clubrating.accounts.permissions import audience_for, birth_years_public, member_page_allowed
from clubrating.accounts.templatetags.privacy import viewer_of
from clubrating.clubs import privacy
from clubrating.clubs.models import Club, Member
from clubrating.clubs.search import SEARCH_MAX
from clubrating.clubs.selectors import member_search
from clubrating.core.formatting import rating_value
from clubrating.interchange.formats.limits import check_text
from ratings.rules.rounding import round_half_away
from ratings.selectors import member_rating_blocks

from . import schemas
from .responses import documented, json_response, refuse, refuse_parameters, require_ratings

router = Router(tags=["members"])

MEMBERS_PER_PAGE = 50  # as the member list


def club_schema(club: Club | None) -> schemas.Club | None:
    if club is None:
        return None
    return schemas.Club(id=club.pk, name=club.name, short_name=club.short_name, city=club.city)


@router.get("/clubs", response=list[schemas.Club], summary="Clubs",
            openapi_extra=documented(304, 403, 429))
def clubs(request: HttpRequest):
    require_ratings(request)
    return json_response(request, [club_schema(club) for club in Club.objects.order_by("name")])


class MemberQuery(Schema):
    page: int = 1
    # Every word in a name, the club's name, the national or FIDE ID (as the member list).
    q: str = Field("", max_length=SEARCH_MAX)
    club: int | None = None  # a club's id (``/clubs``)
    active: bool = False

    @field_validator("q")
    @classmethod
    def _text(cls, value: str) -> str:
        check_text(value)  # no NUL byte or other control character (a ValueError: 422)
        return value


def member_row(member: Member, viewer) -> schemas.MemberRow:
    def shown(field: str, value):
        return value if viewer.shows(member, field) else None

    return schemas.MemberRow(
        id=member.pk, name=member.full_name, club=shown("club", member.club.name if member.club else None),
        title=shown("title", member.fide_title or None), fide_rating=shown("ratings", member.fide_rating),
        birth_year=shown(privacy.BIRTH_YEAR, member.year_of_birth),
        url=member.get_absolute_url() if viewer.links(member) else None,
    )


@router.get("/members", response=schemas.MemberPage, summary="Members",
            openapi_extra=documented(304, 403, 404, 422, 429))
def members(request: HttpRequest, query: Query[MemberQuery]):
    """The member list: a restricted profile (the member's choice, or a minor without his
    guardians' consent) shows the name only, as on the page."""
    require_ratings(request)
    if query.club is not None and not Club.objects.filter(pk=query.club).exists():
        refuse_parameters(["club"])
    viewer = viewer_of(request)
    rows = member_search(query=query.q.strip(), active_only=query.active, club_id=query.club,
                         private=viewer.audience < privacy.Audience.OFFICIAL)
    paginator = Paginator(rows.order_by("last_name", "first_name", "pk"), MEMBERS_PER_PAGE)
    try:
        page = paginator.page(query.page)
    except (EmptyPage, PageNotAnInteger):
        refuse(_("There is no such page of this list."), 404)
    return json_response(request, schemas.MemberPage(
        count=paginator.count, page=page.number, pages=paginator.num_pages, per_page=MEMBERS_PER_PAGE,
        results=[member_row(member, viewer) for member in page.object_list],
    ))


def _member(request: HttpRequest, member_id: int) -> Member:
    """The member whose page this reader may open; else 403 (or 404), as the member page."""
    require_ratings(request)
    member = get_object_or_404(Member.objects.select_related("club"), pk=member_id)
    if not member_page_allowed(request.user, member):
        refuse(_("This member's profile is not public."))
    return member


@router.get("/members/{member_id}", response=schemas.Member, summary="A member's public profile",
            openapi_extra=documented(304, 403, 404, 422, 429))
def member(request: HttpRequest, member_id: int):
    member = _member(request, member_id)
    shown = privacy.visible_fields(member, audience=audience_for(request.user, member),
                                   birth_years_public=birth_years_public())
    return json_response(request, schemas.Member(
        id=member.pk, name=member.full_name, first_name=member.first_name, last_name=member.last_name,
        title=member.fide_title, club=club_schema(member.club), federation=member.federation,
        fide_id=member.fide_id, fide_rating=member.fide_rating, national_id=member.national_id,
        birth_year=member.year_of_birth if privacy.BIRTH_YEAR in shown or "birth_date" in shown else None,
        url=member.get_absolute_url(),
    ))


@router.get("/members/{member_id}/ratings", response=schemas.MemberRatings,
            summary="A member's ratings, list history and tournament performances",
            openapi_extra=documented(304, 403, 404, 422, 429))
def member_ratings(request: HttpRequest, member_id: int):
    """The member page's ratings table, chart (the published lists' values; a withdrawn list is
    not part of the history) and performances per tournament."""
    member = _member(request, member_id)
    blocks = member_rating_blocks(member)
    ratings, history, performances = [], [], []
    for block in blocks:
        state = block.state
        if state is not None:
            ratings.append(schemas.PoolRating(
                pool_id=block.pool.pk, pool=block.pool.name, rules=block.pool.rules,
                rating=rating_value(state.rating), games=state.games_count,
                live_rating=rating_value(state.live_rating),
                live_change=rating_value(state.live_change) if block.provisional else None,
                live_games=state.live_games, pending_games=state.pending_games, provisional=block.provisional,
            ))
        history += [schemas.HistoryPoint(
            pool_id=block.pool.pk, list_id=entry.list_id, valid_from=entry.list.valid_from,
            rating=rating_value(entry.rating), change=rating_value(entry.change), rank=entry.rank,
        ) for entry in block.history]
        performances += [schemas.Performance(
            pool_id=block.pool.pk, tournament_id=perf.tournament.pk, tournament=perf.tournament.name,
            games=perf.games, points=perf.points, unrated_games=perf.unrated,
            unrated_points=perf.unrated_points,
            average_opponent=round_half_away(perf.average) if perf.average is not None else None,
            performance=perf.performance,
            change=round_half_away(perf.change, 1) if perf.change is not None else None,
        ) for perf in block.performances]
    return json_response(request, schemas.MemberRatings(
        member_id=member.pk, ratings=ratings, history=history, performances=performances))
