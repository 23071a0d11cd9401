"""Long work that runs beside the web server (recalculation, closing, large imports, PDFs).

A ``Job`` is what the pages show: who started what, how far it is, its result or its translated
error. The work itself runs as a task of Django's task framework (``clubrating.jobs.tasks``); the
job row outlives the task queue's own record and is what the unique constraint guards: one active
job per ``key`` (for example one per rating pool), so the same work cannot run twice at once.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class JobState(models.TextChoices):
    QUEUED = "queued", _("waiting")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


ACTIVE = (JobState.QUEUED, JobState.RUNNING)


class Job(models.Model):
    key = models.CharField(_("subject"), max_length=100)  # e.g. "pool:3": one active job per key
    title = models.CharField(_("title"), max_length=200)
    handler = models.CharField(_("handler"), max_length=200)  # dotted path of the function run
    params = models.JSONField(_("parameters"), default=dict)
    language = models.CharField(_("language"), max_length=10, default="de-at")
    state = models.CharField(_("state"), max_length=8, choices=JobState.choices, default=JobState.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    step = models.CharField(_("current step"), max_length=200, blank=True)
    message = models.TextField(_("result or error"), blank=True)
    result_url = models.CharField(_("result address"), max_length=300, blank=True)
    report = models.JSONField(_("report"), null=True, blank=True)
    report_template = models.CharField(_("report template"), max_length=200, blank=True)
    output = models.BinaryField(_("file"), null=True, blank=True)
    output_name = models.CharField(_("file name"), max_length=200, blank=True)
    output_type = models.CharField(_("file type"), max_length=100, blank=True)
    # Shown to everyone who may read the rating lists (a list's PDF), not only to its starter.
    public = models.BooleanField(_("public"), default=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Written by the running worker every few seconds: a running job whose worker died stops
    # beating and is then shown as failed (``clubrating.jobs.services.jobs_fail_stale``).
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    # The uploaded file the job works on (a member file): given to the handler as ``upload``
    # and deleted when the job ends, however it ends (``clubrating.jobs.services``).
    upload = models.TextField(_("uploaded file"), null=True, blank=True)
    # The failed job this one starts again: with ``started_by`` the audit of who restarted what.
    restart_of = models.ForeignKey(
        "self",
        verbose_name=_("starts again"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="restarts",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("background job")
        verbose_name_plural = _("background jobs")
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=Q(state__in=["queued", "running"]), name="job_one_active_per_key"
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="job_progress_percent"),
        ]
        indexes = [models.Index(fields=["key", "-created_at"])]

    def __str__(self) -> str:
        return self.title

    @property
    def active(self) -> bool:
        return self.state in ACTIVE and not self.stale

    @property
    def last_sign_of_life(self):
        return self.heartbeat_at or self.started_at or self.created_at

    @property
    def stale(self) -> bool:
        """Running, but its worker has given no sign of life for ``settings.JOB_STALE_SECONDS``:
        the worker died (killed, out of memory, the machine restarted). Computed on reading, so
        that a page shows it without writing; the worker marks such jobs failed
        (``jobs_fail_stale``)."""
        if self.state != JobState.RUNNING:
            return False
        limit = timezone.now() - datetime.timedelta(seconds=settings.JOB_STALE_SECONDS)
        return self.last_sign_of_life < limit

    @property
    def state_label(self) -> str:
        return JobState.FAILED.label if self.stale else self.get_state_display()

    @property
    def failed(self) -> bool:
        """Failed, or shown as failed because its worker died."""
        return self.state == JobState.FAILED or self.stale
