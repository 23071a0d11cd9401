"""Pool-wide rating work as background jobs: recalculation, closing and reopening a period.

One active job per pool (the key ``pool:<id>``): a second start is refused while one waits or
runs. Each handler runs the very service the synchronous path runs and reports its progress.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_start
from ratings.models import RatingPeriod, RatingPool
from ratings.services.periods import period_close, period_reopen
from ratings.services.recalc import pool_recalculate


def _user(user_id: int | None):
    return get_user_model().objects.filter(pk=user_id).first() if user_id else None


def pool_key(pool: RatingPool) -> str:
    return f"pool:{pool.pk}"


def pool_recalculate_run(*, progress: Progress, pool_id: int) -> Outcome:
    pool = RatingPool.objects.get(pk=pool_id)
    count = pool_recalculate(pool=pool, progress=progress)
    return Outcome(
        message=ngettext(
            "%(count)d rating record of “%(pool)s” rebuilt.",
            "%(count)d rating records of “%(pool)s” rebuilt.",
            count,
        )
        % {"count": count, "pool": pool.name},
        result_url=reverse("ratings:live", args=[pool.pk]),
    )


def period_close_run(
    *, progress: Progress, period_id: int, user_id: int | None = None, early: bool = False, reason: str = ""
) -> Outcome:
    period = RatingPeriod.objects.select_related("pool").get(pk=period_id)
    plist = period_close(pool=period.pool, user=_user(user_id), progress=progress, early=early, reason=reason)
    return Outcome(
        message=_("The period is closed and the new list is published."),
        result_url=reverse("ratings:list", args=[plist.pk]),
    )


def period_reopen_run(
    *, progress: Progress, period_id: int, reason: str, user_id: int | None = None
) -> Outcome:
    period = RatingPeriod.objects.select_related("pool").get(pk=period_id)
    period_reopen(period=period, reason=reason, user=_user(user_id), progress=progress)
    return Outcome(
        message=_("The period is open again; closing it republishes its list."),
        result_url=reverse("ratings:officer"),
    )


def pool_recalculate_start(*, pool: RatingPool, user=None) -> Job:
    return job_start(
        key=pool_key(pool),
        title=_("Recalculation of “%(pool)s”") % {"pool": pool.name},
        handler="ratings.jobs.pool_recalculate_run",
        params={"pool_id": pool.pk},
        user=user,
    )


def period_close_start(*, period: RatingPeriod, user=None, early: bool = False, reason: str = "") -> Job:
    return job_start(
        key=pool_key(period.pool),
        title=_("Closing %(period)s") % {"period": period},
        handler="ratings.jobs.period_close_run",
        params={"period_id": period.pk, "user_id": getattr(user, "pk", None), "early": early,
                "reason": reason},
        user=user,
    )


def period_reopen_start(*, period: RatingPeriod, reason: str, user=None) -> Job:
    return job_start(
        key=pool_key(period.pool),
        title=_("Reopening %(period)s") % {"period": period},
        handler="ratings.jobs.period_reopen_run",
        params={"period_id": period.pk, "reason": reason, "user_id": getattr(user, "pk", None)},
        user=user,
    )
