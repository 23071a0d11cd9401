"""Background jobs: starting, one active job per subject, progress, result and translated error,
the job page with its polling, and real ``jobs_worker`` processes taking jobs from the queue."""

import datetime

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubrating.clubs.models import Club
from clubrating.jobs.models import Job, JobState
from clubrating.jobs.services import JobBusy, job_start, jobs_fail_stale
from tests.jobs.workers import DATABASE_QUEUE, worker

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]


def UserFactory(username=None):  # noqa: N802 - reads like the factories
    from django.contrib.auth.models import User

    return User.objects.create_user(username or f"user{User.objects.count() + 1}", password="x")


def test_a_job_runs_and_keeps_its_result_and_who_started_it():
    user = UserFactory()
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.mark", params={"name": "A"}, user=user)
    assert (job.state, job.progress, job.message, job.started_by) == (JobState.DONE, 100, "A", user)
    assert job.started_at is not None and job.finished_at is not None
    assert Club.objects.filter(name="A").count() == 1


@pytest.mark.django_db(transaction=True)
def test_progress_is_written_while_the_job_runs():
    job = job_start(key="look", title="T", handler="tests.jobs.handlers.look", params={"key": "look"})
    assert job.message == "40 half way"


def test_a_refusal_is_kept_as_the_translated_error():
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.refuse", params={})
    refusal = "Nichts zu importieren: bitte die Datei erneut hochladen."
    assert (job.state, job.message) == (JobState.FAILED, refusal)


def test_an_unexpected_error_fails_the_job_with_a_general_message():
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.crash", params={})
    assert job.state == JobState.FAILED
    assert job.message == (
        "Der Auftrag brach mit einem unerwarteten Fehler ab; Details stehen im Server-Protokoll."
    )


def test_the_same_subject_cannot_run_twice():
    user = UserFactory(username="anna")
    Job.objects.create(key="pool:1", title="Neuberechnung", handler="x", started_by=user)
    with pytest.raises(JobBusy) as refused:
        job_start(key="pool:1", title="T", handler="tests.jobs.handlers.mark", params={"name": "B"})
    assert str(refused.value).startswith("„Neuberechnung“ wartet oder läuft bereits (gestartet von anna, ")
    assert not Club.objects.filter(name="B").exists()
    # once it has finished, the subject is free again
    Job.objects.filter(key="pool:1").update(state=JobState.DONE)
    job_start(key="pool:1", title="T", handler="tests.jobs.handlers.mark", params={"name": "B"})
    assert Club.objects.filter(name="B").count() == 1


def test_the_status_block_polls_while_the_job_is_active_and_stops_when_done(client):
    user = UserFactory(username="berta")
    job = Job.objects.create(
        key="k", title="Neuberechnung", handler="x", started_by=user, progress=30, step="Periode"
    )
    client.force_login(user)
    html = client.get(reverse("jobs:status", args=[job.pk])).content.decode()
    assert f'hx-get="{reverse("jobs:status", args=[job.pk])}" hx-trigger="every 5s"' in html
    assert 'value="30"' in html and "30 % · Periode" in html
    assert "Gestartet von berta" in html
    Job.objects.filter(pk=job.pk).update(state=JobState.FAILED, message="Geht nicht.")
    html = client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert "hx-trigger" not in html
    assert '<div class="alert alert-danger" role="alert" id="job-message">Geht nicht.</div>' in html


def test_a_job_is_shown_to_its_starter_and_the_officers_only(client):
    job = Job.objects.create(key="k", title="T", handler="x", started_by=UserFactory())
    client.force_login(UserFactory())
    assert client.get(reverse("jobs:detail", args=[job.pk])).status_code == 403


def test_a_produced_file_is_downloaded_from_the_job_page(client):
    user = UserFactory()
    job = Job.objects.create(
        key="k", title="T", handler="x", started_by=user, state=JobState.DONE,
        output=b"%PDF-1.7", output_name="Liste.pdf", output_type="application/pdf",
    )
    client.force_login(user)
    response = client.get(reverse("jobs:output", args=[job.pk]))
    assert (response.content, response["Content-Type"]) == (b"%PDF-1.7", "application/pdf")
    assert response["Content-Disposition"] == 'attachment; filename="Liste.pdf"'


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE_QUEUE)
def test_two_worker_processes_take_queued_jobs_from_one_queue_without_doubles():
    jobs = [
        job_start(key=f"mark:{n}", title="T", handler="tests.jobs.handlers.mark", params={"name": f"ran {n}"})
        for n in range(12)
    ]
    assert {j.state for j in jobs} == {JobState.QUEUED}  # nothing runs inside the web process
    workers = [worker(), worker()]
    outputs = [w.communicate(timeout=120)[0].decode() for w in workers]
    assert [w.returncode for w in workers] == [0, 0], outputs
    assert set(Job.objects.values_list("state", flat=True)) == {JobState.DONE}
    assert sorted(Club.objects.filter(name__startswith="ran ").values_list("name", flat=True)) == sorted(
        f"ran {n}" for n in range(12)
    )


def _failed(handler: str, user, **params) -> Job:
    return Job.objects.create(key="k", title="T", handler=handler, params=params, started_by=user,
                              state=JobState.FAILED, message="Abgebrochen.")


def test_a_job_started_again_runs_for_who_restarted_it_and_names_the_first(client):
    from django.contrib.auth.models import User

    anna = UserFactory(username="anna")
    bert = User.objects.create_user("bert", password="x", is_staff=True)
    first = _failed("tests.jobs.handlers.whose", anna)
    client.force_login(bert)
    response = client.post(reverse("jobs:restart", args=[first.pk]))
    again = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:detail", args=[again.pk])
    assert (again.state, again.message, again.started_by, again.restart_of) == (
        JobState.DONE, "bert", bert, first)
    html = client.get(response["Location"]).content.decode()
    assert "Gestartet von bert, " in html
    when = date_format(timezone.localtime(first.created_at), "SHORT_DATETIME_FORMAT")
    assert f"Startet den Auftrag erneut, den anna am {when} gestartet hat." in html


def test_an_uploaded_file_is_given_to_the_job_and_deleted_when_it_ends():
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.read", params={"name": "m.csv"},
                    upload="x" * 5000)
    assert (job.state, job.message, job.upload, job.params) == (JobState.DONE, "m.csv: 5000", None,
                                                               {"name": "m.csv"})
    job = job_start(key="k", title="T", handler="tests.jobs.handlers.read_and_refuse",
                    params={"name": "m.csv"}, upload="x" * 5000)
    assert (job.state, job.upload) == (JobState.FAILED, None)


@override_settings(JOB_STALE_SECONDS=300)
def test_an_uploaded_file_is_deleted_when_its_dead_worker_is_detected():
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    job = Job.objects.create(key="k", title="T", handler="tests.jobs.handlers.read", params={"name": "m.csv"},
                             upload="x" * 5000, state=JobState.RUNNING, started_at=an_hour_ago,
                             heartbeat_at=an_hour_ago)
    assert jobs_fail_stale() == 1
    job.refresh_from_db()
    assert (job.state, job.upload) == (JobState.FAILED, None)


def test_a_job_whose_file_is_deleted_is_not_offered_again(client):
    user = UserFactory()
    job = _failed("tests.jobs.handlers.read", user, name="m.csv")
    client.force_login(user)
    assert 'id="job-restart"' not in client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert client.post(reverse("jobs:restart", args=[job.pk])).status_code == 403
    assert Job.objects.count() == 1
