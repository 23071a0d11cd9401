"""The start page: what a visitor, member, official or rating officer looks for first.

It shows the club's current rating list (top 10 of the live list, with links to the full live and
published lists), the running, upcoming and recent tournaments, and quick links by role. Every
block is read with a fixed number of queries; blocks the visitor may not see are left out.
"""

from __future__ import annotations

import functools
import hashlib
from datetime import timedelta
from urllib.parse import urlencode

from django.core.cache import cache
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.http import HttpResponsePermanentRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from clubrating.accounts.permissions import (
    audience_for,
    can_view_ratings,
    can_view_tournaments,
    is_official,
    is_rating_officer,
)
from clubrating.clubs.models import Club
from clubrating.clubs.privacy import Audience
from clubrating.clubs.selectors import club_data_version, home_club
from clubrating.tournaments.models import GameCategory, Tournament
from clubrating.tournaments.selectors import tournament_entrants, tournament_states
from ratings.models import RatingPool
from ratings.selectors import live_count, live_list, member_ratings, pools_with_list_in_force
from ratings.services.cache import pool_cache_version

TOP = 10
HOME_CACHE_SECONDS = 3600
RECENT = 5
RUNNING = 10  # a federation runs hundreds at once: the page shows the latest, the list has all
# "Recently finished" means within the last year (a club's season): a tournament imported years
# after it was played is history, not news.
RECENT_DAYS = 365


@functools.lru_cache(maxsize=4)
def _compiled(queries: str, *args) -> list[tuple[str, tuple]]:
    """The SQL of the start page's fixed queries (``_QUERIES[queries](*args)``), compiled once per
    process and arguments: building SQL from a QuerySet took about 1 ms each, more than running it."""
    return [qs.query.sql_with_params() for qs in _QUERIES[queries](*args)]


def _tournament_querysets(today) -> list:
    """The candidates of the three lists by their dates, their own columns only, along the
    tournaments' date indexes: running by its dates (all of them: whether each is finished is read
    per tournament by ``tournament_states``), the next upcoming ones and the latest that ended
    within ``RECENT_DAYS``. Asking "finished?" in SQL of every tournament would run its subqueries
    for each candidate and, on small tables, scan rounds and matches once per tournament."""
    base = Tournament.objects.only(
        "name", "kind", "start_date", "end_date", "rounds_count").annotate(division_pk=F("division__id"))
    ended = Coalesce("end_date", "start_date")
    return [
        base.filter(Q(start_date__lte=today) & (Q(end_date__isnull=True) | Q(end_date__gte=today)))
        .order_by("-start_date", "name"),
        base.filter(start_date__gt=today).order_by("start_date", "name")[:RECENT],
        base.filter(end_date__lt=today)
        .alias(ended=ended).filter(ended__gte=today - timedelta(days=RECENT_DAYS))
        .order_by("-ended", "name")[:RECENT],
    ]


def _pools_queryset(today) -> list:
    # Each pool with its list in force today: not a withdrawn one (its period reopened), nor one
    # that applies from a later day.
    return [pools_with_list_in_force(today)]


_QUERIES = {"tournaments": _tournament_querysets, "pools": _pools_queryset}


def _tournaments(today) -> dict:
    """Running (today within its dates and not finished; the latest ``RUNNING`` of them, oldest
    first), upcoming and recently finished tournaments (ended within ``RECENT_DAYS`` by their end
    date, or by their last round's results while their dates still run)."""
    by_date, upcoming, ended = (list(Tournament.objects.raw(sql, params))
                                for sql, params in _compiled("tournaments", today))
    states = tournament_states(tournaments=by_date)  # the others' rounds are not shown
    running = [t for t in by_date if not states[t.pk].finished][:RUNNING + 1]
    cutoff = today - timedelta(days=RECENT_DAYS)
    done = [t for t in by_date if states[t.pk].finished and (t.end_date or t.start_date) >= cutoff]
    # The two kinds of finished ones in one order: latest end first, then by name (as in SQL).
    recent = sorted(ended + done, key=lambda t: (-(t.end_date or t.start_date).toordinal(), t.name))[:RECENT]
    shown = (*running, *upcoming, *recent)
    entrants = tournament_entrants(ids=[t.pk for t in shown])
    for t in shown:
        t.player_count, t.team_count = entrants[t.pk]
        t.division_id = t.division_pk
        t.current_round = states[t.pk].current_round if t.pk in states else None
    return {
        "running": sorted(running[:RUNNING], key=lambda t: (t.start_date, t.name)),
        "running_more": len(running) > RUNNING,
        "upcoming": upcoming,
        "recent": recent,
    }


def _club_rating_list(club: Club | None, today, *, private: bool) -> dict | None:
    """Top of the live list of the main pool (standard games first), counting the home club's
    members only when there is a home club; None when there is no pool yet. An ``ORDER BY …
    LIMIT`` and a count, cached until the pool's ratings change. ``private``: the reader sees a
    restricted profile's name only, so the club's list leaves such members out (being on it
    would tell their club), as the list page filtered by the club does."""
    ((sql, params),) = _compiled("pools", today)
    pools = list(RatingPool.objects.raw(sql, params))
    if not pools:
        return None
    pool = next((p for p in pools if p.category == GameCategory.STANDARD), pools[0])
    club_id = club.pk if club is not None else None
    key = (f"home:top:{pool.pk}:{club_id}:{private}:{pool_cache_version(pool.pk)}:{club_data_version()}"
           f":{today}")
    cached = cache.get(key)
    if cached is None:
        cached = {
            "top": [
                {"rank": e.rank, "name": e.member.full_name, "url": e.member.get_absolute_url(),
                 "rating": e.rating, "change": e.change}
                for e in live_list(pool, club_id=club_id, limit=TOP, private=private)
            ],
            "count": live_count(pool, club_id=club_id, private=private),
            "published": (pool.published_pk, pool.published_from) if pool.published_pk else None,
        }
        cache.set(key, cached, HOME_CACHE_SECONDS)
    full_url = reverse("ratings:live", args=[pool.pk])
    if club is not None:
        full_url += "?" + urlencode({"club": club.name})
    return {**cached, "key": key, "pool": pool, "full_url": full_url, "other_pools": len(pools) - 1}


def _fragment(template: str, context: dict, *parts) -> str:
    """``template`` rendered with ``context``, cached under ``parts``: everything the fragment
    shows (its rows or the cache version they were read under), the language and the visitor's
    role (officials see more buttons). Rendering, not reading, took most of the page's time."""
    key = "home:html:" + hashlib.sha256(
        repr((template, translation.get_language(), *parts)).encode()
    ).hexdigest()
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, context)
        cache.set(key, html, HOME_CACHE_SECONDS)
    return mark_safe(html)  # rendered by the template above, escaped there


def _tournament_rows(tournaments: dict) -> tuple:
    """What the tournaments block shows of each tournament (the cache key of its fragment)."""
    return tuple(
        (name, [(t.pk, t.name, t.kind, t.start_date, t.end_date, t.rounds_count, t.player_count,
                 t.team_count, t.division_id, t.current_round) for t in tournaments[name]])
        for name in ("running", "upcoming", "recent")
    ) + (tournaments["running_more"],)


def home(request):
    user = request.user
    club = home_club()
    official = is_official(user)
    context = {
        "show_tournaments": can_view_tournaments(user),
        "show_ratings": can_view_ratings(user),
        "is_official": official,
        "is_rating_officer": is_rating_officer(user),
    }
    # An empty site says what comes next to whoever can do it: the first pool.
    context["needs_pool"] = context["is_rating_officer"] and not RatingPool.objects.exists()
    member = getattr(user, "member", None) if user.is_authenticated else None
    context["member"] = member
    if member is not None:
        # A member may always see his own values, even when the lists are not public.
        context["my_ratings"] = list(member_ratings(member))
    today = timezone.localdate()
    if context["show_tournaments"]:
        tournaments = _tournaments(today)
        context["tournaments_html"] = _fragment(
            "partials/home_tournaments.html", {**tournaments, "is_official": official},
            official, _tournament_rows(tournaments),
        )
    private = audience_for(user) < Audience.OFFICIAL
    rating_list = _club_rating_list(club, today, private=private) if context["show_ratings"] else None
    context["ratings_html"] = _fragment(
        "partials/home_ratings.html", {"show_ratings": context["show_ratings"], "rating_list": rating_list},
        context["show_ratings"], rating_list and (rating_list["key"], rating_list["full_url"],
                                                  rating_list["other_pools"], rating_list["pool"].name),
    )
    return render(request, "home.html", context)


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links; the icon lives with the static files
    (resolved per request: the hashed name exists only once the static files are collected)."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
