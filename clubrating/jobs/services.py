"""Starting a background job, reporting its progress, and finishing it."""

from __future__ import annotations

import datetime
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connection, connections, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

from .models import Job, JobState

logger = logging.getLogger(__name__)

Progress = Callable[[int, str], None]


class JobBusy(Refused):
    """The same work is already waiting or running."""


@dataclass
class Outcome:
    """What a handler returns: a summary, where to see the result, and optionally a report or a file."""

    message: str
    result_url: str = ""
    report: dict | None = None
    report_template: str = ""
    output: bytes | None = None
    output_name: str = ""
    output_type: str = ""
    extra: dict = field(default_factory=dict)


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


class _Reporter:
    """Writes progress so that the polling page sees it while the work's own transaction is
    still open: on PostgreSQL through a second connection; elsewhere (SQLite serialises writers)
    through the same one, visible when the work commits."""

    def __init__(self, job_id: int):
        self.job_id = job_id
        self.side = None

    def __call__(self, percent: int, step: str = "") -> None:
        percent = max(0, min(100, int(percent)))
        if connection.vendor == "postgresql" and connection.in_atomic_block:
            if self.side is None:
                self.side = connections.create_connection(DEFAULT_DB_ALIAS)
            with self.side.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {Job._meta.db_table} SET progress=%s, step=%s, heartbeat_at=%s WHERE id=%s",
                    [percent, step[:200], timezone.now(), self.job_id],
                )
            self.side.commit()
        else:
            Job.objects.filter(pk=self.job_id).update(
                progress=percent, step=step[:200], heartbeat_at=timezone.now()
            )

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


class _Heartbeat:
    """Writes the job's sign of life every ``settings.JOB_HEARTBEAT_SECONDS`` from a thread of
    its own (own database connection, committed at once) while the handler works, however long
    a step takes. A write that fails (SQLite while the work holds the write lock) is skipped."""

    def __init__(self, job_id: int):
        self.job_id = job_id
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"job-{job_id}-heartbeat", daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc_info):
        self.stop_event.set()
        self.thread.join()

    def _run(self) -> None:
        try:
            while not self.stop_event.wait(settings.JOB_HEARTBEAT_SECONDS):
                try:
                    beating = Job.objects.filter(pk=self.job_id, state=JobState.RUNNING)
                    beating.update(heartbeat_at=timezone.now())
                except DatabaseError:
                    logger.info("background job %s: sign of life not written", self.job_id)
        finally:
            connections.close_all()  # this thread's connections


def job_execute(job_id: int) -> str:
    """Run a queued job once (the task body). A job that is not waiting any more (run already by
    another worker) is left alone."""
    now = timezone.now()
    claimed = Job.objects.filter(pk=job_id, state=JobState.QUEUED).update(
        state=JobState.RUNNING, started_at=now, heartbeat_at=now
    )
    if not claimed:
        return "skipped"
    job = Job.objects.get(pk=job_id)
    reporter = _Reporter(job_id)
    with translation.override(job.language), _Heartbeat(job_id):
        try:
            outcome: Outcome = import_string(job.handler)(progress=reporter, **job.params)
        except Refused as error:
            _finish(job_id, JobState.FAILED, message=str(error))
            return "failed"
        except Exception:
            logger.exception("background job %s (%s) failed", job_id, job.handler)
            _finish(
                job_id,
                JobState.FAILED,
                message=_("The job stopped with an unexpected error; the server log has the details."),
            )
            return "failed"
        finally:
            reporter.close()
    _finish(
        job_id,
        JobState.DONE,
        progress=100,
        step="",
        message=outcome.message,
        result_url=outcome.result_url,
        report=outcome.report,
        report_template=outcome.report_template,
        output=outcome.output,
        output_name=outcome.output_name,
        output_type=outcome.output_type,
    )
    return "done"


def _finish(job_id: int, state: str, **values) -> None:
    Job.objects.filter(pk=job_id).update(state=state, finished_at=timezone.now(), **values)
