"""PGN and TRF files above ``BACKGROUND_IMPORT_BYTES`` are previewed and imported as background
jobs (the file travels as the job's upload, in the database), so no request waits on them."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from clubrating.jobs.models import Job, JobState
from clubrating.tournaments.models import Game, Tournament
from tests.interchange.conftest import TRF_DIR, db_counts
from tests.ratings.factories import make_pool

from .test_pgn_import_page import NEW_EVENT, confirm, preview

pytestmark = pytest.mark.django_db


@override_settings(BACKGROUND_IMPORT_BYTES=100)
def test_a_large_pgn_file_is_previewed_and_imported_in_the_background(official_client, official):
    before = db_counts()
    response = preview(official_client, NEW_EVENT)
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert db_counts() == before
    assert (job.state, job.key, job.started_by, job.upload) == (JobState.DONE, "pgn-import", official, None)
    assert job.message == ("2 games (1 with moves) will be imported into Vereinsabend; players: 0 matched, "
                           "3 new members.")
    html = official_client.get(response["Location"]).content.decode()
    assert f'<form method="post" action="{reverse("interchange:pgn_import")}" class="mb-3">' in html
    created = "<li>Huber, Anna</li><li>Gruber, Bernd</li><li>Maier, Carl</li>"
    assert f'<ul class="small" id="created">{created}</ul>' in html

    response = confirm(official_client)
    job = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.report["done"], job.upload) == (JobState.DONE, True, None)
    assert job.message == ("Imported 2 games (1 with moves) into Vereinsabend; players: 0 matched, "
                           "3 new members.")
    tournament = Tournament.objects.get(name="Vereinsabend")
    assert Game.objects.filter(round__tournament=tournament).count() == 2
    assert f'href="{reverse("tournaments:detail", args=[tournament.pk])}"' in official_client.get(
        response["Location"]).content.decode()


@override_settings(BACKGROUND_IMPORT_BYTES=1000)
def test_a_large_trf_file_is_previewed_and_imported_in_the_background(client, home_club, officer):
    pool = make_pool(name="Klassisch 2005", start=datetime.date(2005, 7, 1))
    client.force_login(officer)
    url = reverse("interchange:trf_import", args=[pool.pk])
    text = (TRF_DIR / "karl-mala-2005.trf").read_text()
    response = client.post(url, {"file": SimpleUploadedFile("karl-mala-2005.trf", text.encode())})
    job = Job.objects.get()
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.key, job.title) == (JobState.DONE, "trf-import",
                                               "TRF-Import-Vorschau: karl-mala-2005.trf")
    assert job.message.startswith("9. Karl-Mala-Gedenkturnier wird importiert: 283 Spieler")
    assert not Tournament.objects.exists()
    html = client.get(response["Location"]).content.decode()
    assert f'<form method="post" action="{url}" class="mb-3">' in html
    assert "Zeile 297: Spieler 284 (Platzhalter für spielfrei)" in html

    response = client.post(url, {"confirm": "1"})
    job = Job.objects.latest("pk")
    tournament = Tournament.objects.get()
    assert (job.state, job.result_url) == (JobState.DONE, tournament.get_absolute_url())
    assert tournament.rating_links.get().pool == pool and pool.records.count() > 0


def test_small_files_stay_in_the_request(official_client):
    preview(official_client, NEW_EVENT)
    assert not Job.objects.exists()
