"""The close page's preview: the list closing a period today would publish, as rows of a
rating-list table, read without locking or writing anything.

Closing publishes the members' live values (``ratings.services.periods.live_entries``), which
every change of the period keeps equal to what the engine computes, in the live list's order
(``ratings.lists.order``), less the members inactive too long (ÖSB TUWO § 27 d). So the preview
is the live list's rows in SQL, with the values a published list shows (the change from the
published rating, the games in all), and the rank among the rows that stay (the live rank kept
with the live ratings, less the inactive members ahead): the page reads, sorts, pages and counts
in the database, 50 rows of a federation's 20,000. Only where closing evaluates the period anew
(the dsb blend, whose list marks come from the evaluation, and an early closing that leaves
games dated after today to the next period) the whole list is computed in memory
(``period_close_list_preview``).
"""

from __future__ import annotations

import datetime

from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from ratings.live_level import live_rank_expression
from ratings.models import PoolMember, RatingPeriod
from ratings.selectors import live_rows
from ratings.services.inactivity import inactive_members
from ratings.services.periods import PreviewRow, close_preview_window, period_close_list_preview


def close_preview_rows(*, period: RatingPeriod) -> QuerySet[PoolMember] | list[PreviewRow]:
    """The preview's rows in rank order: a QuerySet of live rows (``live_rows``, ``rank`` and
    ``list_*`` as on the published list; their classes as on the live list,
    ``ratings.lists.table.live_decorate``), or the computed rows where closing evaluates anew.
    Refused (``RatingsError``) when the period cannot be closed today."""
    pool = period.pool
    end, anew = close_preview_window(period=period)
    if anew:
        return period_close_list_preview(period=period)
    rows = live_rows(pool)
    rank = live_rank_expression()
    valid_from = end + datetime.timedelta(days=1)  # (``list_valid_from`` of the period as closing ends it)
    # (On the live rating's index alone, without the rows' joins: most pools leave nobody out.)
    listed = PoolMember.objects.filter(pool=pool, live_rating__isnull=False).order_by().values_list(
        "member_id", flat=True)
    inactive = inactive_members(pool=pool, list_date=valid_from, member_ids=listed)
    if inactive:
        rows = rows.exclude(member_id__in=inactive)
        before = Q(live_rating__gt=OuterRef("live_rating")) | Q(
            live_rating=OuterRef("live_rating"), live_place__lt=OuterRef("live_place"))
        ahead = (PoolMember.objects.filter(pool=pool, member_id__in=inactive).filter(before)
                 .order_by().values("pool_id").annotate(n=Count("pk")).values("n"))
        rank = live_rank_expression() - Coalesce(Subquery(ahead, output_field=IntegerField()), 0)
    # As the list publishes them: the change from the published rating (0 without games), the
    # games in all; nothing is provisional (``list_markers`` already marks a first rating).
    return rows.annotate(
        rank=rank, provisional=Value(False),
        list_change=Case(When(rating__isnull=False, then=F("live_rating") - F("rating")), default=None,
                         output_field=FloatField()),
    ).order_by("-live_rating", "live_place")
