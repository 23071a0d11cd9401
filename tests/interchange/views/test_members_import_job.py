"""A member file above the size threshold is previewed and imported as background jobs."""

import pytest
from django.test import override_settings
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.views import MEMBERS_SESSION_KEY
from clubrating.jobs.models import Job, JobState

from ..conftest import db_counts
from .conftest import DE, EN
from .test_members_import_page import CSV, HEADER, URL, confirm, preview, upload

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


def _long_file(bad_row: str, rows: int = 1200) -> str:
    """More rows than ``BACKGROUND_IMPORT_ROWS`` (1,000): this file goes to the background."""
    lines = [f"Spieler{n};Max;m;01.01.1970;;;;;;;" for n in range(2, rows + 2)]
    lines[1100] = bad_row  # file line 1102
    return HEADER + "\n".join(lines) + "\n"


# Each refused before a job stores the text (PostgreSQL's JSON refuses a NUL byte: HTTP 500),
# word for word as the foreground import refuses a short file.
LONG_REFUSED = {
    "NUL byte": ("Spieler\x00;Max;m;01.01.1970;;;;;;;",
                 "Line 1102: column 8 holds a control character (U+0000).",
                 "Zeile 1102: Spalte 8 enthält ein Steuerzeichen (U+0000)."),
    "comma row": ("Maier,Karl,m,01.01.1970,,,,,,,",
                  "Line 1102: the row is separated by “,”, the header by “;”; every row must use the "
                  "header's delimiter.",
                  "Zeile 1102: die Zeile ist durch „,“ getrennt, die Kopfzeile durch „;“; jede Zeile muss "
                  "das Trennzeichen der Kopfzeile verwenden."),
    "long name": ("M" * 81 + ";Max;m;01.01.1970;;;;;;;",
                  "Line 1102: column “last_name” is longer than 80 characters.",
                  "Zeile 1102: Spalte „last_name“ ist länger als 80 Zeichen."),
}


@pytest.mark.parametrize("lang", [EN, DE])
@pytest.mark.parametrize("case", sorted(LONG_REFUSED))
def test_a_long_file_is_refused_before_any_job_like_a_short_one(official_client, lang, case):
    row, english, german = LONG_REFUSED[case]
    before = db_counts()
    response = preview(official_client, _long_file(row), lang)
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == [english if lang == EN else german]
    assert (Job.objects.count(), db_counts()) == (0, before)


def test_utf16_without_byte_order_mark_is_refused_at_its_first_character(official_client):
    raw = _long_file("Spieler;Max;m;01.01.1970;;;;;;;").encode("utf-16-le")
    response = official_client.post(URL, {"file": upload(raw)})
    assert response.context["form"].errors["file"] == [
        "Zeile 1: Spalte 2 enthält ein Steuerzeichen (U+0000)."]
    assert Job.objects.count() == 0


def test_a_refused_file_waiting_for_confirmation_starts_no_job(official_client):
    """The confirmation runs the same check again before it starts the job."""
    session = official_client.session
    session[MEMBERS_SESSION_KEY] = {"name": "m.csv", "text": _long_file("Spieler\x00;Max;;;;;;;;;")}
    session.save()
    response = confirm(official_client)
    assert response.status_code == 302 and response["Location"] == URL
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == ["Line 1102: column 8 holds a control character (U+0000)."]
    assert Job.objects.count() == 0


def test_the_job_checks_the_file_as_the_page_does():
    """A job queued before this check existed (or by other code) refuses the file the same way."""
    from clubrating.interchange.jobs import members_import_run

    with pytest.raises(ImportRefused, match=r"^Line 1102: column 8 holds a control character \(U\+0000\)\.$"):
        members_import_run(progress=lambda *_: None, upload=_long_file("Spieler\x00;Max;;;;;;;;;"), name="m")


@override_settings(BACKGROUND_IMPORT_ROWS=3)
def test_a_failed_member_import_offers_to_upload_the_file_again(official_client, official):
    """Its file is gone with the job: no "start again" button, but the way to start anew."""
    preview(official_client, CSV)
    job = Job.objects.get()
    Job.objects.filter(pk=job.pk).update(state=JobState.FAILED, message="Zeile 2: kaputt.")
    html = official_client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert 'id="job-restart"' not in html
    assert f'<a class="btn btn-primary" href="{URL}" id="job-again">' in html
