"""A long list's PDF is drawn once, as a background job, and downloaded from the job's page."""

import pytest
from django.test import override_settings
from django.urls import reverse

from clubrating.jobs.models import Job, JobState


# Every test here reads the rated club as built: it is built once for the module and each test runs
# in a savepoint with its own instances (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared


@override_settings(BACKGROUND_PDF_ROWS=3)
def test_a_long_lists_pdf_is_a_job_that_every_reader_shares(client, rated_club):
    url = reverse("ratings:list_pdf", args=[rated_club["list"].pk])
    response = client.get(url)  # a visitor: the club's lists are public
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.public, job.started_by, job.output_name) == (
        JobState.DONE, True, None, "Wertungsliste_Standard_2026-07-01.pdf"
    )
    html = client.get(response["Location"]).content.decode()
    assert "Das PDF ist fertig." in html and "Wertungsliste_Standard_2026-07-01.pdf herunterladen" in html
    download = client.get(reverse("jobs:output", args=[job.pk]))
    assert download["Content-Type"] == "application/pdf" and download.content.startswith(b"%PDF-")
    # asked again: the same job, not a second drawing
    assert client.get(url)["Location"] == reverse("jobs:detail", args=[job.pk])
    assert Job.objects.count() == 1
    # another order is another PDF
    client.get(url, {"sort": "name"})
    assert Job.objects.count() == 2


@override_settings(BACKGROUND_PDF_ROWS=3)
def test_a_short_filtered_lists_pdf_is_drawn_at_once(client, rated_club):
    response = client.get(reverse("ratings:list_pdf", args=[rated_club["list"].pk]), {"club": "SV Gäste"})
    assert response["Content-Type"] == "application/pdf"
    assert not Job.objects.exists()


@override_settings(BACKGROUND_PDF_ROWS=3, JOB_STALE_SECONDS=300)
def test_a_pdf_job_whose_worker_died_is_drawn_anew(client, rated_club):
    import datetime

    from django.utils import timezone

    url = reverse("ratings:list_pdf", args=[rated_club["list"].pk])
    first = Job.objects.get(pk=int(client.get(url)["Location"].rstrip("/").split("/")[-1]))
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    Job.objects.filter(pk=first.pk).update(state=JobState.RUNNING, heartbeat_at=an_hour_ago, output=None)
    again = client.get(url)
    second = Job.objects.latest("pk")
    assert second.pk != first.pk and again["Location"] == reverse("jobs:detail", args=[second.pk])
    assert Job.objects.get(pk=first.pk).state == JobState.FAILED and second.state == JobState.DONE
