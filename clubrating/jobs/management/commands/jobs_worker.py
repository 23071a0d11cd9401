"""``manage.py jobs_worker``: django-tasks-db's ``db_worker``, made to outlive the database.

``db_worker`` exits on the first database error that is not SQLite's "locked" (PostgreSQL
stopped or restarted, a dropped connection), and jobs then wait in the queue for ever. This
worker logs the error, closes its connections, waits (1 s, doubling up to ``--max-backoff``) and
carries on; a task that was running when the database went away is ended by the sweep below
once the database is back. It takes the same options as ``db_worker``.

Every ``settings.JOB_HEARTBEAT_SECONDS`` (and on every start) it also ends the work of workers
that died (killed, out of memory, the machine restarted): their running jobs, silent for
``settings.JOB_STALE_SECONDS``, are marked failed, and the task queue's own rows of jobs that
ended so are ended too (``jobs_fail_stale``, ``job_tasks_finish``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from argparse import ArgumentTypeError

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from clubrating.jobs.services import job_tasks_finish, jobs_fail_stale

logger = logging.getLogger("clubrating.jobs.worker")

FIRST_BACKOFF = 1.0


def _close_connections() -> None:
    """Drop this thread's connections, broken or not: the next query opens a new one."""
    for connection in connections.all(initialized_only=True):
        try:
            connection.close()
        except DatabaseError:
            pass


def jobs_sweep() -> None:
    """End the jobs and task rows of dead workers (see the module's docstring)."""
    failed = jobs_fail_stale()
    ended = job_tasks_finish()
    if failed or ended:
        logger.warning("Ended the work of stopped workers (jobs marked failed: %d, task rows ended: %d).",
                       failed, ended)


class _Sweeper(threading.Thread):
    """Sweeps from a thread of its own (own database connection) while the worker waits or works."""

    def __init__(self):
        super().__init__(name="jobs-sweeper", daemon=True)
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(settings.JOB_HEARTBEAT_SECONDS):
                try:
                    jobs_sweep()
                except DatabaseError as error:  # the worker's own loop reports the outage
                    logger.info("Sweep skipped: %s", error)
                    _close_connections()
        finally:
            connections.close_all()


class Worker(db_worker.Worker):
    def __init__(self, *, max_backoff: float, **options):
        super().__init__(**options)
        self.max_backoff = max_backoff

    def run(self) -> None:
        delay = FIRST_BACKOFF
        outage = False
        sweeper = _Sweeper()
        sweeper.start()
        try:
            while self.running:
                try:
                    jobs_sweep()
                    if outage:
                        logger.warning("The database is reachable again; the worker carries on.")
                        outage, delay = False, FIRST_BACKOFF
                    super().run()
                    return  # --batch or --max-tasks: done
                except (OperationalError, InterfaceError) as error:  # unreachable, or the connection lost
                    outage = True
                    logger.error(
                        "The database cannot be reached (%s: %s); the worker tries again in %.0f s.",
                        type(error).__name__, str(error).strip(), delay,
                    )
                    _close_connections()
                    self.pause(delay)
                    delay = min(delay * 2, self.max_backoff)
        finally:
            sweeper.stopped.set()

    def pause(self, seconds: float) -> None:
        time.sleep(seconds)


def _max_backoff(value: str) -> float:
    seconds = db_worker.valid_interval(value)
    if seconds < FIRST_BACKOFF:
        raise ArgumentTypeError(f"Must be at least {FIRST_BACKOFF:g}")
    return seconds


class Command(db_worker.Command):
    help = "Run a background worker that outlives database outages and ends the work of dead workers."

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--max-backoff", type=_max_backoff, default=60.0,
            help="Longest wait (in seconds) between attempts while the database cannot be reached "
                 "(default: 60)",
        )

    def handle(self, *, verbosity: int, queue_name: str, exclude_queues: str, reload: bool, batch: bool,
               max_backoff: float, **options) -> None:
        # As ``db_worker``'s own ``handle``, with this module's worker.
        self.configure_logging(verbosity)
        if reload and batch:
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names, excluded_queue_names=excluded, batch=batch, max_backoff=max_backoff,
            interval=options["interval"], backend_name=options["backend_name"],
            startup_delay=options["startup_delay"], max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only in the reloader's child, as db_worker does
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
