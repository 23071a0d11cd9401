"""Importing a tournament from a TRF file into a rating pool: rating officers only, a preview
first, and the import and its rating in one transaction."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubrating.tournaments.models import Tournament
from ratings.models import PeriodState, RatingPeriod
from tests.interchange.conftest import TRF_DIR, db_counts
from tests.interchange.views.conftest import login_url
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db

TRF = TRF_DIR / "karl-mala-2005.trf"


@pytest.fixture
def pool(db):
    return make_pool(name="Klassisch 2005", start=datetime.date(2005, 7, 1))


def upload(name, text):
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/plain")


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_rating_officers_get_in(client, pool, plain_user, official, method):
    url = reverse("interchange:trf_import", args=[pool.pk])
    response = getattr(client, method)(url)
    assert response.status_code == 302 and response["Location"] == login_url(url)
    for user in (plain_user, official):
        client.force_login(user)
        assert getattr(client, method)(url).status_code == 403, user
    assert not Tournament.objects.exists()


@pytest.mark.slow
def test_trf_tournament_preview_then_import(client, home_club, officer, pool):
    client.force_login(officer)
    url = reverse("interchange:trf_import", args=[pool.pk])
    trf_file = upload("karl-mala-2005.trf", TRF.read_text())
    response = client.post(url, {"file": trf_file})
    report = response.context["report"]
    assert report["matched"] == [] and len(report["created"]) == 283
    assert report["notices"] == []  # the pool's period covers the tournament
    assert report["refused"] == ["Zeile 297: Spieler 284 (Platzhalter für spielfrei)"]
    html = response.content.decode()
    assert ('<p id="import-summary" class="lead">9. Karl-Mala-Gedenkturnier wird importiert: 283 Spieler '
            "(0 zugeordnet, 283 neue Gäste, 1 abgelehnt)") in html
    assert not Tournament.objects.exists()  # the preview was rolled back
    response = client.post(url, {"confirm": "1"})
    tournament = Tournament.objects.get()
    assert tournament.name == "9. Karl-Mala-Gedenkturnier"
    assert tournament.rating_links.get().pool == pool
    assert pool.records.count() > 0
    assert reverse("tournaments:detail", args=[tournament.pk]) in response.content.decode()
    # The stored upload is used once.
    assert client.post(url, {"confirm": "1"}).status_code == 302


def test_a_refusal_by_the_ratings_undoes_the_import(client, home_club, officer, pool):
    client.force_login(officer)
    RatingPeriod.objects.filter(pool=pool).update(state=PeriodState.CLOSED)
    before = db_counts()
    url = reverse("interchange:trf_import", args=[pool.pk])
    response = client.post(url, {"file": upload("karl-mala-2005.trf", TRF.read_text())})
    assert response.context["form"].errors["file"] == [
        "Die Partie vom 28.07.2005 liegt in der abgeschlossenen Wertungsperiode 01.07.2005–31.12.2005 "
        "von „Klassisch 2005“; sie kann nur nach Wiederöffnen der Periode geändert werden."
    ]
    assert db_counts() == before


def test_the_starting_list_page_links_to_the_tournament_import(client, officer, pool):
    client.force_login(officer)
    html = client.get(reverse("ratings:import", args=[pool.pk])).content.decode()
    assert f'href="{reverse("interchange:trf_import", args=[pool.pk])}"' in html
    assert "Turnier aus einer TRF-Datei importieren" in html


def test_a_tournament_outside_every_period_says_so_and_is_no_recent_news(client, home_club, officer):
    pool = make_pool(name="Klassisch 2026", start=datetime.date(2026, 1, 1))
    client.force_login(officer)
    url = reverse("interchange:trf_import", args=[pool.pk])
    response = client.post(url, {"file": upload("karl-mala-2005.trf", TRF.read_text())})
    notice = ("Das Turnier (28.07.2005–31.07.2005) liegt außerhalb jeder Wertungsperiode von "
              "„Klassisch 2026“: seine Partien ändern keine Wertungszahl.")
    assert response.context["report"]["notices"] == [notice]
    assert f'<div class="alert alert-warning" role="alert">{notice}</div>' in response.content.decode()
    client.post(url, {"confirm": "1"})
    tournament = Tournament.objects.get()
    assert tournament.get_absolute_url() not in client.get("/").content.decode()
