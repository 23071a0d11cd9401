"""Jobs whose worker died: their sign of life stops, they are shown as failed with a translated
message, and the same job can be started again."""

import datetime
import sqlite3

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubrating.clubs.models import Club
from clubrating.jobs.models import Job, JobState
from clubrating.jobs.services import JobBusy, job_start, jobs_fail_stale

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]


def _running(*, silent_seconds: int, key="pool:1", user=None) -> Job:
    last = timezone.now() - datetime.timedelta(seconds=silent_seconds)
    return Job.objects.create(
        key=key, title="Neuberechnung", handler="tests.jobs.handlers.mark", params={"name": "again"},
        state=JobState.RUNNING, started_at=last - datetime.timedelta(seconds=60), heartbeat_at=last,
        started_by=user,
    )


def _stale_message(job: Job) -> str:
    when = date_format(timezone.localtime(job.heartbeat_at), "SHORT_DATETIME_FORMAT")
    # What is known: the worker's silence. It may have been stopped, or may have lost the database
    # and work on (it then still finishes the job).
    return (f"Kein Lebenszeichen vom Hintergrundprozess dieses Auftrags seit {when}: Er wurde beendet "
            f"oder verlor die Verbindung zur Datenbank. Arbeitet er weiter, beendet er den Auftrag noch, "
            f"und diese Seite zeigt das Ergebnis; sonst bitte erneut starten.")


@override_settings(JOB_STALE_SECONDS=300)
def test_a_running_job_silent_too_long_is_marked_failed_with_a_translated_message():
    dead = _running(silent_seconds=301)
    alive = _running(silent_seconds=10, key="pool:2")
    assert jobs_fail_stale() == 1
    dead.refresh_from_db()
    alive.refresh_from_db()
    assert (dead.state, dead.message) == (JobState.FAILED, _stale_message(dead))
    assert dead.finished_at is not None
    assert alive.state == JobState.RUNNING


@override_settings(JOB_STALE_SECONDS=300)
def test_a_job_without_any_sign_of_life_counts_from_its_start():
    job = _running(silent_seconds=0)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=None,
                                         started_at=timezone.now() - datetime.timedelta(seconds=400))
    assert jobs_fail_stale(key="pool:1") == 1
    assert Job.objects.get(pk=job.pk).state == JobState.FAILED


@override_settings(JOB_STALE_SECONDS=300)
def test_the_same_job_starts_again_once_its_dead_worker_is_detected():
    _running(silent_seconds=10)
    start = {"key": "pool:1", "title": "Neuberechnung", "handler": "tests.jobs.handlers.mark",
             "params": {"name": "B"}}
    with pytest.raises(JobBusy):
        job_start(**start)
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    Job.objects.filter(state=JobState.RUNNING).update(heartbeat_at=an_hour_ago)
    job = job_start(**start)
    assert (job.state, job.message) == (JobState.DONE, "B")
    states = list(Job.objects.order_by("pk").values_list("state", flat=True))
    assert states == [JobState.FAILED, JobState.DONE]


def _writes(queries) -> list[str]:
    writing = ("INSERT", "UPDATE", "DELETE")
    return [q["sql"] for q in queries if q["sql"].lstrip().split()[0].upper() in writing]


@override_settings(JOB_STALE_SECONDS=300)
def test_the_job_page_shows_a_dead_job_as_failed_without_writing_and_starts_it_again(client):
    user = User.objects.create_user("anna", password="x")
    job = _running(silent_seconds=600, user=user)
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        html = client.get(reverse("jobs:status", args=[job.pk])).content.decode()
        page = client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert _writes(queries) == []  # the page only reads: the worker marks the job failed
    job.refresh_from_db()
    assert job.state == JobState.RUNNING
    for shown in (html, page):
        assert _stale_message(job) in shown and "hx-trigger" not in shown
        assert '<span class="badge text-bg-danger" id="job-state">fehlgeschlagen</span>' in shown
        assert 'id="job-restart"' in shown and "Erneut starten" in shown
    response = client.post(reverse("jobs:restart", args=[job.pk]))
    again = Job.objects.latest("pk")
    assert response.status_code == 302 and response["Location"] == reverse("jobs:detail", args=[again.pk])
    assert (again.key, again.handler, again.params, again.state, again.started_by, again.restart_of) == (
        "pool:1", "tests.jobs.handlers.mark", {"name": "again"}, JobState.DONE, user, job)
    job.refresh_from_db()
    assert (job.state, job.message) == (JobState.FAILED, _stale_message(job))
    assert Club.objects.filter(name="again").count() == 1


def test_only_who_may_manage_a_job_may_start_it_again(client):
    job = _running(silent_seconds=0, user=User.objects.create_user("anna", password="x"))
    Job.objects.filter(pk=job.pk).update(state=JobState.FAILED)
    client.force_login(User.objects.create_user("bert", password="x"))
    assert client.post(reverse("jobs:restart", args=[job.pk])).status_code == 403
    assert Job.objects.count() == 1


def test_a_job_that_did_not_fail_is_not_started_again(client):
    user = User.objects.create_user("anna", password="x")
    job = _running(silent_seconds=0, user=user)
    client.force_login(user)
    assert client.post(reverse("jobs:restart", args=[job.pk])).status_code == 403
    html = client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert 'id="job-restart"' not in html


@pytest.mark.django_db(transaction=True)
@override_settings(JOB_HEARTBEAT_SECONDS=0.05)
def test_a_working_job_writes_its_sign_of_life_without_reporting_progress():
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.wait", params={"seconds": 0.6})
    assert job.state == JobState.DONE
    assert job.heartbeat_at > job.started_at + datetime.timedelta(seconds=0.3)


@pytest.mark.django_db(transaction=True)
@override_settings(JOB_STALE_SECONDS=300)
def test_the_job_page_answers_while_a_long_job_holds_sqlites_write_lock(client):
    """SQLite has one writer: a page that wrote would wait for the work's transaction (20 s, then
    fail). On PostgreSQL the work's transaction holds no lock the page needs."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's single writer")
    user = User.objects.create_user("anna", password="x")
    job = _running(silent_seconds=600, user=user)
    client.force_login(user)
    work = sqlite3.connect(connection.settings_dict["NAME"], timeout=0)
    try:
        work.execute("BEGIN IMMEDIATE")  # the long job's transaction
        response = client.get(reverse("jobs:status", args=[job.pk]))
    finally:
        work.rollback()
        work.close()
    assert response.status_code == 200 and _stale_message(job) in response.content.decode()


@override_settings(JOB_STALE_SECONDS=300)
def test_a_worker_that_lived_through_an_outage_still_finishes_its_job(client):
    """Marked failed while its worker could not reach the database, the job is finished by that
    worker when the database is back: the page shows the result, not the failure."""
    from clubrating.jobs import runner

    user = User.objects.create_user("offi", is_staff=True)
    job = _running(silent_seconds=301, user=user)
    assert jobs_fail_stale() == 1
    runner._finish(job.pk, JobState.DONE, progress=100, step="", message="Fertig.")
    client.force_login(user)
    html = client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert '<div class="alert alert-success" role="status" id="job-message">Fertig.</div>' in html
    assert "Kein Lebenszeichen" not in html
