"""Starting a background job and marking one whose worker died; running it is
``clubrating.jobs.runner``. Handlers return an ``Outcome`` and report through a ``Progress``."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

from .models import Job, JobState
from .runner import Outcome, Progress

__all__ = ["JobBusy", "JobKind", "Outcome", "Progress", "job_active", "job_kind", "job_may_restart",
           "job_restart", "job_start", "job_tasks_finish", "jobs_fail_stale"]


class JobBusy(Refused):
    """The same work is already waiting or running."""


@dataclass(frozen=True)
class JobKind:
    """What the job layer must know of a handler: who may run its work (``may_run(user)``, the
    very check of the page that starts it, also asked before starting a failed job again),
    whether a failed job may be started again from its page (not when it worked on an uploaded
    file, deleted when the job ended), and whether the handler is given the job's starter
    (``user``: who closed a period is who started, or started again, its job)."""

    may_run: Callable[[object], bool]
    restartable: bool = True
    takes_user: bool = False
    # Where the work is started anew when the job cannot be (its uploaded file is gone): the
    # page to upload it again, from the job's parameters.
    again_url: Callable[[dict], str] | None = None


def job_kind(*, may_run: Callable[[object], bool], restartable: bool = True, takes_user: bool = False,
             again_url: Callable[[dict], str] | None = None):
    """Declares a function as a job handler (see ``JobKind``). Every handler carries exactly what
    it acts on in its parameters (this period, this file) and ends successfully without doing
    anything if that work is done already: a job is started again after its worker died, and
    the work may have committed before the worker could mark the job done."""

    def declare(handler):
        handler.job_kind = JobKind(may_run=may_run, restartable=restartable, takes_user=takes_user,
                                   again_url=again_url)
        return handler

    return declare


def job_kind_of(job: Job) -> JobKind | None:
    try:
        handler = import_string(job.handler)
    except ImportError:
        return None
    return getattr(handler, "job_kind", None)


def job_may_restart(*, job: Job, user) -> bool:
    """A failed job (or one whose worker died) may be started again by whoever may run its work."""
    kind = job_kind_of(job)
    return job.failed and kind is not None and kind.restartable and bool(kind.may_run(user))


def job_active(key: str) -> Job | None:
    return Job.objects.filter(key=key, state__in=[JobState.QUEUED, JobState.RUNNING]).first()


def jobs_fail_stale(*, key: str | None = None) -> int:
    """Mark running jobs whose worker has given no sign of life for ``settings.JOB_STALE_SECONDS``
    as failed, with a translated message saying so: their worker died (killed, out of memory, the
    machine restarted), and the task queue would show them running forever. Frees their subject,
    so the same job can be started again. Returns how many were marked."""
    limit = timezone.now() - datetime.timedelta(seconds=settings.JOB_STALE_SECONDS)
    stale = Job.objects.filter(state=JobState.RUNNING).alias(
        last_sign=Coalesce("heartbeat_at", "started_at", "created_at")
    ).filter(last_sign__lt=limit)
    if key is not None:
        stale = stale.filter(key=key)
    marked = []
    for job in stale.only("pk", "language", "heartbeat_at", "started_at", "created_at", "handler"):
        with translation.override(job.language):
            message = job_stale_message(job)
        # Only while still running and silent: a worker that finished meanwhile keeps its result.
        if Job.objects.filter(Q(heartbeat_at__isnull=True) | Q(heartbeat_at=job.heartbeat_at),
                              pk=job.pk, state=JobState.RUNNING).update(
                state=JobState.FAILED, finished_at=timezone.now(), message=message, step="", upload=None):
            marked.append(job.pk)
    _tasks_end({job_id: False for job_id in marked})
    return len(marked)


def job_stale_message(job: Job) -> str:
    """Why a running job is shown as failed (in the active language): what is known, its worker's
    silence, not more. The worker may have been stopped, or may have lost the database (an
    outage) and work on: then it still finishes the job, and the page shows its result."""
    kind = job_kind_of(job)
    values = {"when": date_format(timezone.localtime(job.last_sign_of_life), "SHORT_DATETIME_FORMAT")}
    if kind is not None and not kind.restartable:
        return _(
            "No sign of life from the worker running this job since %(when)s: it was stopped, or it "
            "lost the database. If it works on, it still finishes the job and this page shows the "
            "result; otherwise upload the file again."
        ) % values
    return _(
        "No sign of life from the worker running this job since %(when)s: it was stopped, or it "
        "lost the database. If it works on, it still finishes the job and this page shows the "
        "result; otherwise start it again."
    ) % values


def _running_tasks():
    """The task queue's rows still RUNNING, with the job each runs: ``[(row, job_id), …]``."""
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from .tasks import job_run

    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, task_path=job_run.module_path)
    rows = []
    for row in running.only("pk", "args_kwargs", "started_at"):
        args = (row.args_kwargs or {}).get("args") or [None]
        rows.append((row, args[0] if isinstance(args[0], int) else None))
    return rows


def _tasks_end(outcomes: dict[int, bool]) -> int:
    """End the RUNNING task rows of the jobs ``{job_id: succeeded}`` whose worker stopped."""
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    if not outcomes:
        return 0
    ended = 0
    for row, job_id in _running_tasks():
        if job_id not in outcomes:
            continue
        ok = outcomes[job_id]
        ended += DBTaskResult.objects.filter(pk=row.pk, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.SUCCESSFUL if ok else TaskResultStatus.FAILED,
            finished_at=timezone.now(),
            exception_class_path="" if ok else "clubrating.jobs.services.WorkerStopped",
            traceback="" if ok else "The worker running this task stopped before ending it.",
        )
    return ended


def job_tasks_finish() -> int:
    """End the task queue's own rows of jobs whose worker stopped (killed): a row still RUNNING
    whose job ended a sign-of-life interval ago takes the job's outcome (a live worker ends its
    row within moments of the job), and a row RUNNING for ``settings.JOB_STALE_SECONDS`` whose
    job never started (the worker died between taking the task and claiming the job) fails with
    its job. Returns how many rows were ended."""
    now = timezone.now()
    grace = now - datetime.timedelta(seconds=settings.JOB_HEARTBEAT_SECONDS)
    stale = now - datetime.timedelta(seconds=settings.JOB_STALE_SECONDS)
    rows = _running_tasks()
    jobs = Job.objects.only("pk", "state", "finished_at", "language").in_bulk(
        [job_id for _row, job_id in rows if job_id is not None])
    outcomes: dict[int, bool] = {}
    orphans = []
    for row, job_id in rows:
        job = jobs.get(job_id)
        if job is None:
            orphans.append(row.pk)
        elif job.state in (JobState.DONE, JobState.FAILED) and (job.finished_at or now) <= grace:
            outcomes[job.pk] = job.state == JobState.DONE
        elif job.state == JobState.QUEUED and row.started_at is not None and row.started_at < stale:
            with translation.override(job.language):
                message = _("The worker that took this job stopped before starting it; start it again.")
            Job.objects.filter(pk=job.pk, state=JobState.QUEUED).update(
                state=JobState.FAILED, finished_at=now, upload=None, message=message)
            outcomes[job.pk] = False
    ended = _tasks_end(outcomes)
    if orphans:  # their job was deleted
        from django_tasks_db.compat import TaskResultStatus
        from django_tasks_db.models import DBTaskResult

        ended += DBTaskResult.objects.filter(pk__in=orphans, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.FAILED, finished_at=now,
            exception_class_path="clubrating.jobs.services.WorkerStopped",
            traceback="The job of this task no longer exists.")
    return ended


def job_start(
    *, key: str, title: str, handler: str, params: dict, user=None, public: bool = False,
    upload: str | None = None, restart_of: Job | None = None,
) -> Job:
    """Queue ``handler(progress=…, **params)`` to run in the background (at once under the
    immediate backend of the tests). ``upload`` (an uploaded file's text) is given to the handler
    as ``upload`` and deleted when the job ends. Refused (``JobBusy``) while a job of the same
    ``key`` waits or runs; the message says who started it and when. A running job whose worker
    died is marked failed first (``jobs_fail_stale``) and so does not block its subject."""
    from .tasks import job_run

    jobs_fail_stale(key=key)
    try:
        with transaction.atomic():
            job = Job.objects.create(
                key=key,
                title=title,
                handler=handler,
                params=params,
                language=translation.get_language() or "de-at",
                public=public,
                started_by=user if user is not None and getattr(user, "is_authenticated", False) else None,
                upload=upload,
                restart_of=restart_of,
            )
    except IntegrityError:
        running = job_active(key)
        who = running.started_by.get_username() if running and running.started_by else _("the system")
        when = date_format(timezone.localtime(running.created_at), "SHORT_DATETIME_FORMAT") if running else ""
        raise JobBusy(
            _("“%(title)s” is already waiting or running (started by %(who)s, %(when)s).")
            % {"title": running.title if running else title, "who": who, "when": when}
        ) from None
    job_run.enqueue(job.pk)
    job.refresh_from_db()
    return job


def job_restart(*, job: Job, user) -> Job:
    """Start a failed job (or one whose worker died) again: the same work, on the same subject,
    as a new job started by ``user``, who must be allowed to run that work (``JobKind.may_run``;
    closing a period: rating officers). The new job names the one it starts again."""
    if not job_may_restart(job=job, user=user):
        raise PermissionDenied
    jobs_fail_stale(key=job.key)
    return job_start(key=job.key, title=job.title, handler=job.handler, params=job.params,
                     user=user, public=job.public, restart_of=job)
