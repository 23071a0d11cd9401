"""Starting a background job and marking one whose worker died; running it is
``clubrating.jobs.runner``. Handlers return an ``Outcome`` and report through a ``Progress``."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

from .models import Job, JobState
from .runner import Outcome, Progress

__all__ = ["JobBusy", "Outcome", "Progress", "job_active", "job_start", "jobs_fail_stale"]


class JobBusy(Refused):
    """The same work is already waiting or running."""


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
    marked = 0
    for job in stale.only("pk", "language", "heartbeat_at", "started_at", "created_at"):
        last = job.heartbeat_at or job.started_at or job.created_at
        with translation.override(job.language):
            message = _(
                "The worker running this job stopped before finishing it (last sign of life %(when)s); "
                "start it again."
            ) % {"when": date_format(timezone.localtime(last), "SHORT_DATETIME_FORMAT")}
        # Only while still running and silent: a worker that finished meanwhile keeps its result.
        marked += Job.objects.filter(Q(heartbeat_at__isnull=True) | Q(heartbeat_at=job.heartbeat_at),
                                     pk=job.pk, state=JobState.RUNNING).update(
            state=JobState.FAILED, finished_at=timezone.now(), message=message, step="")
    return marked


def job_start(*, key: str, title: str, handler: str, params: dict, user=None, public: bool = False) -> Job:
    """Queue ``handler(progress=…, **params)`` to run in the background (at once under the
    immediate backend of the tests). Refused (``JobBusy``) while a job of the same ``key`` waits
    or runs; the message says who started it and when. A running job whose worker died is marked
    failed first (``jobs_fail_stale``) and so does not block its subject."""
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
