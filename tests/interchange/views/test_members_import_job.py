"""A member file above the size threshold is previewed and imported as background jobs."""

import pytest
from django.test import override_settings
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.interchange.views import MEMBERS_SESSION_KEY
from clubrating.jobs.models import Job, JobState

from ..conftest import db_counts
from .test_members_import_page import CSV, URL, confirm, preview

pytestmark = pytest.mark.django_db


@override_settings(BACKGROUND_IMPORT_ROWS=3)
def test_a_long_member_file_is_previewed_and_imported_in_the_background(official_client, official):
    before = db_counts()
    response = preview(official_client, CSV)
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert db_counts() == before  # the preview's dry run changed nothing
    assert (job.state, job.started_by, job.key) == (JobState.DONE, official, "members-import")
    assert job.message == "3 members will be created, 0 will be updated; 1 duplicate row will be skipped."
    html = official_client.get(response["Location"]).content.decode()
    assert f'<form method="post" action="{URL}" class="mb-3">' in html  # confirm from the job page
    created = "<li>Huber, Anna</li><li>Gruber, Bernd</li><li>Adler, Max</li>"
    assert f'<ul class="small" id="created">{created}</ul>' in html

    response = confirm(official_client)
    job = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.report["done"]) == (JobState.DONE, True)
    assert sorted(Member.objects.values_list("last_name", flat=True)) == ["Adler", "Gruber", "Huber"]
    assert MEMBERS_SESSION_KEY not in official_client.session


@override_settings(BACKGROUND_IMPORT_ROWS=3)
def test_a_second_long_import_waits_for_the_first(official_client, official):
    Job.objects.create(key="members-import", title="Mitgliederimport: a.csv", started_by=official)
    html = preview(official_client, CSV).content.decode()
    who = official.get_username()
    assert f"“Mitgliederimport: a.csv” is already waiting or running (started by {who}, " in html
    assert Member.objects.count() == 0


@override_settings(BACKGROUND_IMPORT_ROWS=3)
def test_the_member_file_is_not_kept_once_its_jobs_have_ended(official_client):
    preview(official_client, CSV)
    confirm(official_client)
    jobs = list(Job.objects.order_by("pk"))
    assert [(job.title, job.state, job.params, job.upload) for job in jobs] == [
        ("Import preview: members.csv", JobState.DONE, {"name": "members.csv"}, None),
        ("Member import: members.csv", JobState.DONE, {"name": "members.csv"}, None),
    ]


def test_a_failed_member_import_is_not_started_again_from_its_page(official_client, official):
    job = Job.objects.create(key="members-import", title="Mitgliederimport: m.csv", started_by=official,
                             handler="clubrating.interchange.jobs.members_import_run",
                             params={"name": "m.csv"}, state=JobState.FAILED, message="Abgebrochen.")
    html = official_client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert 'id="job-restart"' not in html  # the file is gone: it is uploaded again
    assert official_client.post(reverse("jobs:restart", args=[job.pk])).status_code == 403
    assert Job.objects.count() == 1
