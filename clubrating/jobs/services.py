"""Starting a background job, reporting its progress, and finishing it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
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


def job_start(*, key: str, title: str, handler: str, params: dict, user=None, public: bool = False) -> Job:
    """Queue ``handler(progress=…, **params)`` to run in the background (at once under the
    immediate backend of the tests). Refused (``JobBusy``) while a job of the same ``key`` waits
    or runs; the message says who started it and when."""
    from .tasks import job_run

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
                    f"UPDATE {Job._meta.db_table} SET progress=%s, step=%s WHERE id=%s",
                    [percent, step[:200], self.job_id],
                )
            self.side.commit()
        else:
            Job.objects.filter(pk=self.job_id).update(progress=percent, step=step[:200])

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


def job_execute(job_id: int) -> str:
    """Run a queued job once (the task body). A job that is not waiting any more (run already by
    another worker) is left alone."""
    claimed = Job.objects.filter(pk=job_id, state=JobState.QUEUED).update(
        state=JobState.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return "skipped"
    job = Job.objects.get(pk=job_id)
    reporter = _Reporter(job_id)
    with translation.override(job.language):
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
