"""The officials' page that checks a TRF file's pairings as a background job: progress per round,
then round by round identical or both pairings with the reason; bad files refused, nothing stored."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubrating.interchange.trf_check import trf_check_run
from clubrating.jobs.models import Job, JobState
from tests.language import speak

from ..test_trf_check import LINES, MET_BEFORE_ROUND_3, RULES_ROUND_3, trf_text
from .conftest import DE, EN

pytestmark = pytest.mark.django_db
URL = reverse("interchange:trf_check")


def post(client, text: str, lang=EN, rules=""):
    upload = SimpleUploadedFile("turnier.trf", text.encode())
    return speak(client, lang).post(URL, {"file": upload, "rules": rules})


def test_a_checked_file_shows_each_round_and_why_one_differs(official_client, official):
    response = post(official_client, trf_text(MET_BEFORE_ROUND_3))
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.started_by, job.upload, job.title) == (
        JobState.DONE, official, None, "Pairing check: turnier.trf")
    assert job.message == "2 of 3 rounds paired as the rules give (FIDE Dutch system from 1 February 2026)."
    assert [(r["round"], r["identical"]) for r in job.report["rounds"]] == [(1, True), (2, True), (3, False)]
    html = official_client.get(response["Location"]).content.decode()
    assert '<span class="badge text-bg-success">identical</span>' in html
    reason = "Absolute criterion C.1 broken: players 4 and 1 already met in round 1."
    assert f'<p class="mb-2 reason">{reason}</p>' in html
    assert '<tr class="table-warning"><td>1</td><td>4 Dorn, David</td><td>1 Alpha, Anna</td></tr>' in html
    assert '<tr class="table-warning"><td>1</td><td>5 Eder, Emma</td><td>3 Czerny, Clara</td></tr>' in html


def test_the_page_in_german(official_client):
    response = post(official_client, trf_text(MET_BEFORE_ROUND_3), lang=DE)
    html = speak(official_client, DE).get(response["Location"]).content.decode()
    assert "Paarungsprüfung: turnier.trf" in html
    assert '<span class="badge text-bg-danger">weicht ab</span>' in html
    assert ("Absolutes Kriterium C.1 verletzt: Spieler 4 und 1 haben bereits in Runde 1 gegeneinander "
            "gespielt.") in html


def test_player_names_from_the_file_are_escaped(official_client):
    hostile = "<script>alert(1)</script>"
    text = trf_text(MET_BEFORE_ROUND_3).replace("Dorn, David               ", hostile.ljust(26))
    response = post(official_client, text)
    html = official_client.get(response["Location"]).content.decode()
    assert hostile not in html
    assert "4 &lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_file_paired_by_the_rules(official_client):
    response = post(official_client, trf_text(RULES_ROUND_3))
    job = Job.objects.get()
    assert job.message == "3 of 3 rounds paired as the rules give (FIDE Dutch system from 1 February 2026)."
    assert "differs" not in official_client.get(response["Location"]).content.decode()


@pytest.mark.parametrize(("lang", "text", "message"), [
    (EN, "012 Nothing\n", "Cannot read the TRF file: the file has no player lines (001)."),
    (DE, "012 Nothing\n",
     "Die TRF-Datei kann nicht gelesen werden: die Datei hat keine Spielerzeilen (001)."),
    # Player 1 meets player 4, who is not in the file.
    (EN, "012 T\n" + LINES[0] + "\n", "Line 2: round 1: opponent 4 has no player line."),
])
def test_a_bad_file_is_refused_and_no_job_is_stored(official_client, lang, text, message):
    response = post(official_client, text, lang=lang)
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == [message]
    assert Job.objects.count() == 0


def test_only_officials(client, plain_user, officer):
    assert client.get(URL)["Location"].startswith(reverse("login"))
    client.force_login(plain_user)
    assert client.get(URL).status_code == 403
    assert post(client, trf_text(RULES_ROUND_3)).status_code == 403
    client.force_login(officer)
    assert client.get(URL).status_code == 403
    assert Job.objects.count() == 0


def test_the_job_refuses_who_may_not_run_it(plain_user):
    assert trf_check_run.job_kind.may_run(plain_user) is False


def test_running_the_check_twice_gives_the_same_report(official_client):
    post(official_client, trf_text(MET_BEFORE_ROUND_3))
    post(official_client, trf_text(MET_BEFORE_ROUND_3))
    first, second = Job.objects.order_by("pk")
    assert (first.state, second.state) == (JobState.DONE, JobState.DONE)
    assert first.report == second.report


def test_progress_is_reported_per_round():
    steps = []
    trf_check_run(progress=lambda percent, step: steps.append((percent, step)),
                  upload=trf_text(RULES_ROUND_3), name="a.trf", rules="")
    assert steps == [(0, "Reading the file"), (33, "Round 1 of 3 checked"), (66, "Round 2 of 3 checked"),
                     (100, "Round 3 of 3 checked")]


def test_officials_find_the_page(official_client):
    assert f'href="{URL}"' in official_client.get(reverse("home")).content.decode()
    assert f'href="{URL}"' in official_client.get(reverse("tournaments:list")).content.decode()
