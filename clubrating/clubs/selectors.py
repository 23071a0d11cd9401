import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from clubrating.core.db import plain_rows, server_bound

from . import privacy
from .models import Club, Member
from .search import name_words_q

# Within one request the own club is read once: the page header, the permission checks and the
# page itself all ask for it. Outside a request (commands, background jobs) every call reads it.
_home_club_memo: ContextVar[dict | None] = ContextVar("home_club_memo", default=None)


def home_club() -> Club | None:
    """The own club (``Club.is_home``; the database allows one), or None before it is set up."""
    memo = _home_club_memo.get()
    if memo is None:
        return Club.objects.filter(is_home=True).first()
    if "club" not in memo:
        memo["club"] = Club.objects.filter(is_home=True).first()
    return memo["club"]


def home_club_name() -> str:
    """The own club's name for printed headers; the product's name before the club is set up."""
    club = home_club()
    return club.name if club else "ClubRating"


@contextmanager
def home_club_remembered() -> Iterator[None]:
    """Read the own club at most once inside this block (one request)."""
    token = _home_club_memo.set({})
    try:
        yield
    finally:
        _home_club_memo.reset(token)


def member_search(*, query: str = "", active_only: bool = False, club_id: int | None = None,
                  private: bool = False) -> QuerySet[Member]:
    """Members with every word of ``query`` (of one club, ``club_id``). ``private``: the reader
    sees a restricted profile's name only (``privacy``), so such a member is found by the words
    of his name alone, never by his club or his numbers (the result would tell them)."""
    members = Member.objects.select_related("club")
    shown = ~privacy.restricted_q(today=timezone.localdate()) if private else Q()
    if active_only:
        members = members.filter(active=True)
    if club_id is not None:
        members = members.filter(shown, club_id=club_id)
    # Every word in the name (accents and case folded, ``clubrating.clubs.search``), the club's
    # name or one of the member's numbers; each condition on the member's own row with an index,
    # so that PostgreSQL combines the indexes (the clubs, a few hundred at most, read first).
    for word, in_name in zip(query.split(), name_words_q(query), strict=True):
        clubs = list(Club.objects.filter(name__icontains=word).values_list("pk", flat=True))
        other = Q(club__in=clubs) | Q(national_id=word)
        if word.isdigit() and len(word) <= 18:  # a FIDE ID (a bigint)
            other |= Q(fide_id=int(word))
        members = members.filter(in_name | (shown & other))
    return members


def club_data_changes() -> list[datetime.datetime | None]:
    """When a member and when a club was last saved (``club_data_version``). Two reads along an
    index; on PostgreSQL in one prepared statement (every cached page asks, cold or warm)."""
    if server_bound():
        return list(plain_rows(_CHANGES_SQL, [])[0])
    return [model.objects.order_by().aggregate(t=Max("changed_at"))["t"] for model in (Member, Club)]


_CHANGES_SQL = (f"SELECT (SELECT MAX(changed_at) FROM {Member._meta.db_table}), "
                f"(SELECT MAX(changed_at) FROM {Club._meta.db_table})")


def club_data_version(changes: list[datetime.datetime | None] | None = None) -> str:
    """Changes whenever a member or a club is saved: cached pages that show names, clubs or
    birth years (the rating lists, the member page, the home page's top list) carry it in their
    cache keys, so an edit shows at once. ``changes``: ``club_data_changes()`` read already."""
    latest = club_data_changes() if changes is None else changes
    return "|".join(t.isoformat() if t else "-" for t in latest)
