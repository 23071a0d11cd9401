"""Job handlers for the tests (the worker process imports them by their dotted path)."""

from django.db import connection, connections, transaction
from django.utils.translation import gettext as _

from clubrating.clubs.models import Club
from clubrating.core.errors import Refused
from clubrating.jobs.models import Job
from clubrating.jobs.services import Outcome, job_kind


def _logged_in(user) -> bool:
    return getattr(user, "is_authenticated", False)


def refuse(*, progress):
    raise Refused(_("Nothing to import: upload the file again."))


def crash(*, progress):
    raise RuntimeError("a bug")


def look(*, progress, key):
    """Reports progress inside its own transaction, like the services, and reads what a polling
    page would read: on PostgreSQL from another connection while the transaction is still open."""
    with transaction.atomic():
        progress(40, "half way")
        if connection.vendor == "postgresql":
            other = connections.create_connection("default")
            try:
                with other.cursor() as cursor:
                    cursor.execute(f"SELECT progress, step FROM {Job._meta.db_table} WHERE key=%s", [key])
                    seen = cursor.fetchone()
            finally:
                other.close()
        else:  # SQLite: one writer at a time; the work's connection sees its own writes
            seen = Job.objects.filter(key=key).values_list("progress", "step").get()
    return Outcome(message=f"{seen[0]} {seen[1]}")


@job_kind(may_run=_logged_in)
def mark(*, progress, name):
    Club.objects.create(name=name)
    return Outcome(message=name)


def wait(*, progress, seconds):
    """Works for ``seconds`` without reporting progress (the sign of life must still be written)."""
    import time

    time.sleep(seconds)
    return Outcome(message="waited")


@job_kind(may_run=_logged_in, takes_user=True)
def whose(*, progress, user):
    """Names whom the job runs for (its starter)."""
    return Outcome(message=user.get_username() if user else "-")


@job_kind(may_run=_logged_in, restartable=False)
def read(*, progress, upload, name):
    """Works on an uploaded file: its length and name."""
    return Outcome(message=f"{name}: {len(upload)}")


@job_kind(may_run=_logged_in, restartable=False)
def read_and_refuse(*, progress, upload, name):
    raise Refused(_("Nothing to import: upload the file again."))
