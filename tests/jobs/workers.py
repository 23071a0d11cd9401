"""Real worker processes for the tests, on the test database."""

import os
import subprocess
import sys
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
BATCH = ("--batch", "--interval", "0.2", "--no-startup-delay", "--no-reload")

# A worker killed (SIGKILL) right after a job's work has committed, before it marks the job done.
KILLED_AFTER_THE_WORK = f"""
import os, signal, django
django.setup()
from clubrating.jobs import runner
def die(job_id, state, **values):
    os.kill(os.getpid(), signal.SIGKILL)
runner._finish = die
from django.core.management import call_command
call_command("jobs_worker", *{BATCH!r})
"""


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def worker(*, script: str | None = None, **popen) -> subprocess.Popen:
    """``manage.py jobs_worker --batch`` (or the Python ``script``) on the test database."""
    env = {**os.environ, "DATABASE_URL": _database_url(), "CLUBRATING_TASK_BACKEND": "database",
           "DJANGO_SETTINGS_MODULE": "clubrating.settings"}
    command = ["-c", script] if script else ["manage.py", "jobs_worker", *BATCH]
    return subprocess.Popen([sys.executable, *command], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **popen)
