"""The worker (``manage.py jobs_worker``): it outlives database outages (logs, backs off,
carries on) and ends the work of workers that died, the task queue's own rows included."""

import contextlib
import datetime
import logging
import os
import socket
import subprocess
import sys
import threading
import time

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
from tests.jobs.workers import ROOT

pytestmark = pytest.mark.db_specific

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


class _Proxy:
    """A TCP proxy between a worker process and PostgreSQL that the test cuts (the database
    goes away: open connections drop, new ones are refused) and restores."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            server = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self):
        self.up = False
        with self.lock:
            for end in self.open:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
            self.open = []

    def close(self):
        self.cut()
        self.listener.close()


def _until(condition, what: str, seconds: float = 120):
    """Waits for ``condition()`` (a worker process works at its own pace); fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _done(name: str) -> bool:
    return Job.objects.filter(key=name, state=JobState.DONE).exists()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_worker_process_outlives_postgresql_going_away_and_coming_back():
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL server that goes away (the unit test above covers both databases)")
    settings_dict = connection.settings_dict
    proxy = _Proxy(settings_dict["HOST"] or "127.0.0.1", int(settings_dict["PORT"] or 5432))
    url = (f"postgres://{settings_dict['USER']}:{settings_dict['PASSWORD']}@127.0.0.1:{proxy.port}/"
           f"{settings_dict['NAME']}")
    env = {**os.environ, "DATABASE_URL": url, "CLUBRATING_TASK_BACKEND": "database"}
    process = subprocess.Popen(
        [sys.executable, "manage.py", "jobs_worker", "--interval", "0.2", "--no-startup-delay", "--no-reload",
         "--max-backoff", "2"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
    try:
        job_start(key="before", title="T", handler="tests.jobs.handlers.mark", params={"name": "before"})
        _until(lambda: _done("before"), "the first job runs")
        proxy.cut()
        _until(lambda: any("The database cannot be reached" in line for line in lines),
               "the outage is logged")
        assert process.poll() is None  # still running
        proxy.up = True
        job_start(key="after", title="T", handler="tests.jobs.handlers.mark", params={"name": "after"})
        _until(lambda: _done("after"), "the job queued during the outage runs once the database is back")
        assert process.poll() is None
        assert any("The database is reachable again; the worker carries on." in line for line in lines)
    finally:
        process.terminate()
        process.wait(timeout=60)
        proxy.close()
    assert sorted(Club.objects.values_list("name", flat=True)) == ["after", "before"]
