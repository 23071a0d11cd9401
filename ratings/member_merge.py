"""The ratings' part of merging a duplicate member (``clubrating.clubs.merge``).

His rating records (his own, and those of his opponents that name him), pool states, list entries,
closing values and FIDE takeovers move to the member kept; every pool he had records in is then
recalculated by the pool's recalculation job (``ratings.jobs.pool_recalculate_start``, the one
the officer page starts), with its progress on the job's page. The recalculation rebuilds the
pool from its games and writes only what differs, so the periods before the earliest one the
duplicate played in stay as they were.

Published lists stay as published (a published list is an immutable snapshot, product spec
"Rating pools and periods"): a list that named the duplicate names the member kept in his place,
with the values it published. The closed periods' records are rated again against the lists in
force then; the merge says so, naming the earliest closed period affected. Reopening the last
closed period and closing it again publishes its list anew with the merged games (docs/rules.md §4.3).

Two records on one published list (or both with a published rating in a pool) are two rated
players: merging them would rewrite a published list, which is refused."""

from __future__ import annotations

from django.db.models import Min, Q
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from clubrating.accounts.permissions import is_rating_officer
from clubrating.clubs.models import Member
from clubrating.jobs.services import job_active

from .jobs import pool_key, pool_recalculate_start
from .models import (
    ClosingLiveValues,
    FideTakeover,
    ListEntry,
    PeriodState,
    PoolMember,
    PublishedList,
    RatingPeriod,
    RatingPool,
    RatingRecord,
)
from .services.live_ranks import live_ranks_renumber, pool_ranks_lock

LIST_ROWS = (ListEntry, ClosingLiveValues, FideTakeover)


def _records(member: Member):
    return RatingRecord.objects.filter(Q(member=member) | Q(opponent=member))


def _pools(member: Member) -> list[RatingPool]:
    ids = set(_records(member).values_list("pool_id", flat=True))
    ids |= set(PoolMember.objects.filter(member=member).values_list("pool_id", flat=True))
    return list(RatingPool.objects.filter(pk__in=ids).order_by("name"))


def _has_ratings(member: Member) -> bool:
    return bool(_pools(member)) or any(model.objects.filter(member=member).exists() for model in LIST_ROWS)


def member_ratings_merge_refusals(keep: Member, duplicate: Member, user) -> list[str]:
    if not _has_ratings(duplicate):
        return []
    if not is_rating_officer(user):
        return [_("He has ratings: only a rating officer merges him, as his pools are recalculated.")]
    reasons = []
    lists = set()
    for model in (ListEntry, FideTakeover):  # what a list published (its closing values are not)
        lists |= set(model.objects.filter(member=duplicate, list__in=model.objects.filter(member=keep)
                                          .values("list_id")).values_list("list_id", flat=True))
    for plist in PublishedList.objects.filter(pk__in=lists).select_related("pool").order_by("valid_from"):
        reasons.append(_("Both are on the published list %(list)s; a published list stays as published.")
                       % {"list": plist})
    rated = PoolMember.objects.filter(member=duplicate, rating__isnull=False,
                                      pool__in=PoolMember.objects.filter(member=keep, rating__isnull=False)
                                      .values("pool_id"))
    for row in rated.select_related("pool").order_by("pool__name"):
        reasons.append(_("Both have a published rating in “%(pool)s”.") % {"pool": row.pool.name})
    for pool in _pools(duplicate):
        running = job_active(pool_key(pool))
        if running is not None:
            reasons.append(_("“%(job)s” is waiting or running; merge when it has ended.")
                           % {"job": running.title})
    return reasons


def _pool_members_merge(keep: Member, duplicate: Member) -> None:
    """One pool state per member and pool: the one with a published rating stays (both having
    one is refused); the recalculation writes its live values again."""
    for theirs in PoolMember.objects.filter(member=duplicate):
        mine = PoolMember.objects.filter(pool_id=theirs.pool_id, member=keep).first()
        if mine is None:
            continue
        if mine.rating is None and theirs.rating is not None:
            mine.delete()
        else:
            theirs.delete()
    PoolMember.objects.filter(member=duplicate).update(member=keep)


def _dates(period: RatingPeriod) -> str:
    return f"{period.start:%d.%m.%Y}–{period.end:%d.%m.%Y}"


def member_ratings_merge(keep: Member, duplicate: Member, user) -> list[str]:
    pools = _pools(duplicate)
    earliest = dict(RatingRecord.objects.filter(member=duplicate).values("pool_id")
                    .annotate(first=Min("played_on")).values_list("pool_id", "first"))
    # Closing values of a list both have (he played under both records in its period): the
    # kept member's stay; reopening that period restores them, and its evaluation follows the records.
    ClosingLiveValues.objects.filter(member=duplicate, list__in=ClosingLiveValues.objects.filter(
        member=keep).values("list_id")).delete()
    for model in LIST_ROWS:
        model.objects.filter(member=duplicate).update(member=keep)
    RatingRecord.objects.filter(member=duplicate).update(member=keep)
    RatingRecord.objects.filter(opponent=duplicate).update(opponent=keep)
    _pool_members_merge(keep, duplicate)
    for pool in sorted(pools, key=lambda pool: pool.pk):  # (locked in the pools' order, as elsewhere)
        pool_ranks_lock(pool.pk)
    for pool in pools:  # one row per member and pool again: the ranks close up at once
        live_ranks_renumber(pool.pk)
    notes = []
    for pool in pools:
        job = pool_recalculate_start(pool=pool, user=user)
        first = earliest.get(pool.pk)
        period = (RatingPeriod.objects.filter(pool=pool, start__lte=first).order_by("-start").first()
                  if first else None)
        notes.append(format_html(
            '{} <a href="{}">{}</a>',
            _("The ratings of “%(pool)s” are recalculated in the background from the period %(period)s on.")
            % {"pool": pool.name, "period": _dates(period) if period else f"{pool.start_date:%d.%m.%Y}"},
            reverse("jobs:detail", args=[job.pk]), _("Progress"),
        ))
        if period is not None and period.state == PeriodState.CLOSED:
            notes.append(_("Published lists stay as published: the lists since %(period)s were calculated "
                           "with the two records apart. Reopening the last closed period on the officer page "
                           "and closing it again publishes its list anew with his games.")
                         % {"period": _dates(period)})
    return notes
