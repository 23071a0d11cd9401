"""The worker (``manage.py jobs_worker``): it outlives database outages (logs, backs off,
carries on) and ends the work of workers that died, the task queue's own rows included."""

import datetime
import logging

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from clubrating.clubs.models import Club
from clubrating.jobs.management.commands import jobs_worker
from clubrating.jobs.models import Job, JobState
from clubrating.jobs.services import job_start

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
AN_HOUR_AGO = datetime.timedelta(hours=1)


class _Outage:
    """The database refuses the next ``queries`` queries, as while PostgreSQL is stopped."""

    def __init__(self, queries: int):
        self.left = queries

    def __call__(self, execute, sql, params, many, context):
        if self.left:
            self.left -= 1
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)


def _run_worker(monkeypatch, *options) -> list[float]:
    pauses = []
    monkeypatch.setattr(jobs_worker.Worker, "pause", lambda self, seconds: pauses.append(seconds))
    monkeypatch.setattr(jobs_worker.Worker, "configure_signals", lambda self: None)  # the test's own
    call_command("jobs_worker", "--batch", "--interval", "0", "--no-startup-delay", "--no-reload", *options)
    return pauses


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE_QUEUE)
def test_the_worker_outlives_a_database_outage_backing_off_and_logging(monkeypatch, caplog):
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.mark", params={"name": "after"})
    assert job.state == JobState.QUEUED
    caplog.set_level(logging.WARNING, logger="clubrating.jobs.worker")
    with connection.execute_wrapper(_Outage(4)):
        pauses = _run_worker(monkeypatch, "--max-backoff", "5")
    assert pauses == [1.0, 2.0, 4.0, 5.0]
    job.refresh_from_db()
    assert (job.state, job.message) == (JobState.DONE, "after")
    assert Club.objects.filter(name="after").count() == 1
    assert DBTaskResult.objects.get().status == TaskResultStatus.SUCCESSFUL
    messages = [record.getMessage() for record in caplog.records]
    assert messages == [
        "The database cannot be reached (OperationalError: server closed the connection unexpectedly); "
        f"the worker tries again in {seconds} s." for seconds in (1, 2, 4, 5)
    ] + ["The database is reachable again; the worker carries on."]


def _claimed(job: Job, *, started: datetime.datetime) -> DBTaskResult:
    row = DBTaskResult.objects.get(args_kwargs__args=[job.pk])
    row.claim("a-worker-that-was-killed")
    DBTaskResult.objects.filter(pk=row.pk).update(started_at=started)
    return row


@pytest.mark.django_db
@override_settings(TASKS=DATABASE_QUEUE, JOB_STALE_SECONDS=300, JOB_HEARTBEAT_SECONDS=15)
def test_the_sweep_ends_the_jobs_and_task_rows_of_killed_workers():
    long_ago = timezone.now() - AN_HOUR_AGO
    start = {"title": "T", "handler": "tests.jobs.handlers.mark", "params": {"name": "x"}}
    dead = job_start(key="dead", **start)  # killed while working
    done = job_start(key="done", **start)  # killed after the job ended, before its task row did
    taken = job_start(key="taken", **start)  # killed after taking the task, before claiming the job
    alive = job_start(key="alive", **start)  # working
    rows = {job.key: _claimed(job, started=long_ago) for job in (dead, done, taken, alive)}
    Job.objects.filter(pk=dead.pk).update(state=JobState.RUNNING, started_at=long_ago, heartbeat_at=long_ago)
    Job.objects.filter(pk=done.pk).update(state=JobState.DONE, finished_at=long_ago, message="x")
    Job.objects.filter(pk=alive.pk).update(state=JobState.RUNNING, started_at=long_ago,
                                           heartbeat_at=timezone.now())
    jobs_worker.jobs_sweep()
    states = {key: (Job.objects.get(key=key).state, DBTaskResult.objects.get(pk=row.pk).status)
              for key, row in rows.items()}
    assert states == {
        "dead": (JobState.FAILED, TaskResultStatus.FAILED),
        "done": (JobState.DONE, TaskResultStatus.SUCCESSFUL),
        "taken": (JobState.FAILED, TaskResultStatus.FAILED),
        "alive": (JobState.RUNNING, TaskResultStatus.RUNNING),
    }
    assert Job.objects.get(key="taken").message == (
        "Der Hintergrundprozess, der diesen Auftrag übernahm, endete vor dessen Beginn; bitte erneut starten."
    )
    assert DBTaskResult.objects.get(pk=rows["dead"].pk).finished_at is not None
