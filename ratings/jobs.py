"""Pool-wide rating work as background jobs: recalculation, closing and reopening a period.

One active job per pool (the key ``pool:<id>``): a second start is refused while one waits or
runs. Each handler runs the very service the synchronous path runs and reports its progress.
Each carries exactly what it acts on and, started again after its worker died, ends
successfully without doing it twice: closing closes its own period only, and only while open;
reopening reopens its period only if no reopening since the job was asked for did; a
recalculation rebuilds the records from the games, the same however often it runs. Only rating
officers run them (``rating_officer_required`` of their pages), also when started again.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubrating.accounts.permissions import is_rating_officer
from clubrating.core.preview import dry_run
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, Progress, job_kind, job_start
from ratings.models import PeriodState, PublishedList, RatingPeriod, RatingPool
from ratings.services.errors import RatingsError
from ratings.services.periods import period_close, period_reopen
from ratings.services.pools import pool_lock
from ratings.services.recalc import pool_recalculate


def pool_key(pool: RatingPool) -> str:
    return f"pool:{pool.pk}"


@job_kind(may_run=is_rating_officer)
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


@job_kind(may_run=is_rating_officer, takes_user=True)
def period_close_run(
    *, progress: Progress, period_id: int, user=None, user_id: int | None = None, early: bool = False,
    reason: str = "",
) -> Outcome:
    """Close the job's period, and only that one: under the pool's lock, a period found closed
    already (its closing committed, then the worker died before marking the job done) ends the
    job successfully, leading to its list; a period that is not the pool's open one (waiting
    again since an earlier period was reopened) is refused. Nothing else is closed. ``early``
    and ``reason``: closing before the period's last day (``period_close``). (``user_id``,
    the starter's id that jobs queued by earlier versions carry, is ignored: the job's starter
    is who closes.)"""
    with transaction.atomic():
        pool = pool_lock(RatingPeriod.objects.select_related("pool").get(pk=period_id).pool)
        period = RatingPeriod.objects.get(pk=period_id)
        if period.state == PeriodState.CLOSED:
            plist = PublishedList.objects.filter(period=period, superseded=False).order_by("-pk").first()
            return Outcome(
                message=_("The period %(period)s was already closed; nothing was changed.")
                % {"period": period},
                result_url=reverse("ratings:list", args=[plist.pk]) if plist else reverse("ratings:officer"),
            )
        if period.state != PeriodState.OPEN:
            raise RatingsError(
                _("The period %(period)s is not open; only the open period can be closed.")
                % {"period": period}
            )
        plist = period_close(pool=pool, user=user, progress=progress, early=early, reason=reason)
    return Outcome(
        message=_("The period is closed and the new list is published."),
        result_url=reverse("ratings:list", args=[plist.pk]),
    )


@job_kind(may_run=is_rating_officer, takes_user=True)
def period_reopen_run(
    *, progress: Progress, period_id: int, reason: str, requested_at: str | None = None, user=None,
    user_id: int | None = None,
) -> Outcome:
    """Reopen the job's period. Open again with a reopening recorded since the job was asked for
    (``requested_at``, kept when the job is started again): the reopening committed before the
    worker died, and the job ends successfully without reopening anything."""
    with transaction.atomic():
        period = RatingPeriod.objects.select_related("pool").get(pk=period_id)
        pool_lock(period.pool)
        period = RatingPeriod.objects.select_related("pool").get(pk=period_id)
        since = parse_datetime(requested_at) if requested_at else None
        if period.state == PeriodState.OPEN and since is not None and period.reopenings.filter(
            reopened_at__gte=since
        ).exists():
            return Outcome(
                message=_("The period %(period)s was already reopened; nothing was changed.")
                % {"period": period},
                result_url=reverse("ratings:officer"),
            )
        period_reopen(period=period, reason=reason, user=user, progress=progress)
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
        params={"period_id": period.pk, "early": early, "reason": reason},
        user=user,
    )


def period_reopen_start(*, period: RatingPeriod, reason: str, user=None) -> Job:
    return job_start(
        key=pool_key(period.pool),
        title=_("Reopening %(period)s") % {"period": period},
        handler="ratings.jobs.period_reopen_run",
        params={"period_id": period.pk, "reason": reason, "requested_at": timezone.now().isoformat()},
        user=user,
    )


# ---- a tournament's TRF file, rated in a pool
# Above ``settings.BACKGROUND_IMPORT_BYTES`` the import page previews and imports it as a job (the
# file is the job's upload): a Swiss of thousands of players takes minutes.

TRF_KEY = "trf-import"


def trf_run(*, pool_pk: int, text: str, user=None) -> dict:
    """Import the tournament and rate it in the pool: one transaction, so that a refusal by the
    ratings (a closed period) undoes the import as well."""
    from clubrating.interchange.errors import ImportRefused
    from clubrating.interchange.trf_import import tournament_import_trf
    from ratings.selectors import tournament_outside_periods
    from ratings.services.pools import tournament_rate_in_pool

    pool = RatingPool.objects.filter(pk=pool_pk).first()
    if pool is None:
        raise ImportRefused(_("The rating pool no longer exists; upload the file again."))
    with transaction.atomic():
        # The pool rates the tournament before its results are recorded (and rated) by their owner.
        report = tournament_import_trf(
            text=text, category=pool.category, user=user,
            before_results=lambda tournament: tournament_rate_in_pool(tournament=tournament, pool=pool))
        outside = tournament_outside_periods(tournament=report.tournament, pool=pool)
    return {**report.plain(), "notices": [outside] if outside else []}


def _trf_outcome(report: dict, name: str, pool_pk: int, done: bool) -> Outcome:
    return Outcome(message=report["summary" if done else "preview"],
                   result_url=report.get("tournament_url", "") if done else "",
                   report={**report, "file_name": name, "pool": pool_pk, "done": done},
                   report_template="interchange/_trf_job_report.html")


def _trf_page(params: dict) -> str:
    return reverse("interchange:trf_import", args=[params["pool"]])


@job_kind(may_run=is_rating_officer, restartable=False, takes_user=True, again_url=_trf_page)
def trf_preview_run(*, progress: Progress, upload: str, name: str, pool: int, user=None) -> Outcome:
    progress(10, _("Reading the tournament"))
    report = dry_run(lambda: trf_run(pool_pk=pool, text=upload, user=user))
    return _trf_outcome(report, name, pool, done=False)


@job_kind(may_run=is_rating_officer, restartable=False, takes_user=True, again_url=_trf_page)
def trf_import_run(*, progress: Progress, upload: str, name: str, pool: int, user=None) -> Outcome:
    progress(10, _("Reading, saving and rating the tournament"))
    return _trf_outcome(trf_run(pool_pk=pool, text=upload, user=user), name, pool, done=True)


def trf_job_start(*, text: str, name: str, pool: int, preview: bool, user=None) -> Job:
    title = _("TRF import preview: %(name)s") if preview else _("TRF import: %(name)s")
    step = "trf_preview_run" if preview else "trf_import_run"
    return job_start(key=TRF_KEY, title=title % {"name": name}, handler=f"ratings.jobs.{step}",
                     params={"name": name, "pool": pool}, upload=text, user=user)
