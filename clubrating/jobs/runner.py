"""Running a queued job (the worker's side): the handler's progress and signs of life written
while it works, its outcome stored when it is done. Starting one is ``clubrating.jobs.services``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from clubrating.core.errors import Refused

from .models import Job, JobState

logger = logging.getLogger(__name__)

Progress = Callable[[int, str], None]


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
    job = Job.objects.select_related("started_by").get(pk=job_id)
    reporter = _Reporter(job_id)
    with translation.override(job.language), _Heartbeat(job_id):
        try:
            handler = import_string(job.handler)
            extra = {}
            if job.upload is not None:
                extra["upload"] = job.upload
            kind = getattr(handler, "job_kind", None)
            if kind is not None and kind.takes_user:
                extra["user"] = job.started_by
            outcome: Outcome = handler(progress=reporter, **job.params, **extra)
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
    """The job's outcome; its uploaded file, needed no longer, is deleted with it."""
    Job.objects.filter(pk=job_id).update(state=state, finished_at=timezone.now(), upload=None, **values)
