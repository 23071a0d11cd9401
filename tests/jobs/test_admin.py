"""Job rows are only looked at in the admin: their state, parameters and the function that runs
belong to the runner; a finished job's row may be deleted, a waiting or running one may not."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubrating.jobs.models import Job, JobState

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]


def job(state=JobState.QUEUED) -> Job:
    return Job.objects.create(key="pool:1", title="Neuberechnung", handler="tests.jobs.handlers.mark",
                              params={"name": "once"}, state=state)


def test_a_job_row_cannot_be_changed_in_the_admin(admin_client):
    row = job()
    url = reverse("admin:jobs_job_change", args=[row.pk])

    page = admin_client.get(url)
    response = admin_client.post(url, {"key": "pool:1", "title": "x", "handler": "os.system",
                                       "params": '{"command": "true"}', "state": JobState.DONE,
                                       "progress": 100, "language": "de-at"})

    row.refresh_from_db()
    assert (row.handler, row.params, row.state) == (
        "tests.jobs.handlers.mark", {"name": "once"}, JobState.QUEUED)
    assert page.status_code == 200 and response.status_code == 403
    assert 'name="handler"' not in page.content.decode()
    assert admin_client.get(reverse("admin:jobs_job_add")).status_code == 403


def test_a_waiting_job_is_not_deleted_and_the_reason_is_german(admin_client):
    row = job()

    response = admin_client.post(reverse("admin:jobs_job_delete", args=[row.pk]), {"post": "yes"})

    assert Job.objects.filter(pk=row.pk).exists()
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Der Auftrag wartet oder läuft noch; er kann gelöscht werden, sobald er beendet ist."]


def test_a_finished_job_row_may_be_deleted(admin_client):
    row = job(JobState.DONE)

    admin_client.post(reverse("admin:jobs_job_changelist"),
                      {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"})

    assert not Job.objects.exists()
