"""Rating officer pages: periods, close with preview, reopen with a reason, imports."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import ListEntry, PeriodReopening, PeriodState, PublishedList, RatingPeriod
from tests.paths import TRF_DIR
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db


# Every test here reads the rated club as built: it is built once for the module and each test runs
# in a savepoint with its own instances (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared

TRF = TRF_DIR / "karl-mala-2005.trf"


def open_period(pool):
    return RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN)


def closed_period(pool):
    return RatingPeriod.objects.get(pool=pool, state=PeriodState.CLOSED)


def protected_urls(rated_club):
    pool = rated_club["pool"]
    return [
        reverse("ratings:officer"),
        reverse("ratings:period_close", args=[open_period(pool).pk]),
        reverse("ratings:period_reopen", args=[closed_period(pool).pk]),
        reverse("ratings:import", args=[pool.pk]),
    ]


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_rating_officers_get_in(client, rated_club, plain_user, official, officer, method):
    for url in protected_urls(rated_club):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
    for user in (plain_user, official):
        client.force_login(user)
        for url in protected_urls(rated_club):
            assert getattr(client, method)(url).status_code == 403, (user, url)
    assert PeriodReopening.objects.count() == 0
    assert PublishedList.objects.count() == 2
    client.force_login(officer)
    assert client.get(reverse("ratings:officer")).status_code == 200


def test_officer_home_lists_pools_and_periods(client, english, rated_club, officer):
    client.force_login(officer)
    html = client.get(reverse("ratings:officer")).content.decode()
    assert "Wertungspools und Perioden" in html
    # Each date stays on one line on a phone.
    for start, end in (("01.01.2026", "30.06.2026"), ("01.07.2026", "31.12.2026")):
        assert f'<span class="text-nowrap">{start} –</span> <span class="text-nowrap">{end}</span>' in html
    assert reverse("ratings:period_close", args=[open_period(rated_club["pool"]).pk]) in html
    assert reverse("ratings:list", args=[rated_club["list"].pk]) in html
    english.force_login(officer)
    assert "Rating pools and periods" in english.get(reverse("ratings:officer")).content.decode()


def test_close_shows_a_preview_then_publishes(client, rated_club, officer, period_ended):
    client.force_login(officer)
    pool = rated_club["pool"]
    url = reverse("ratings:period_close", args=[open_period(pool).pk])
    response = client.get(url)
    rows = {row.member.full_name: row for row in response.context["table"].data}
    assert (rows["Berger, Anna"].list_rating, rows["Berger, Anna"].list_change) == (1843, 8)
    assert (rows["Moser, Clara"].list_rating, rows["Moser, Clara"].list_change) == (1691, -9)
    assert "Vorschau der neuen Liste (4 Einträge)" in response.content.decode()
    # The preview changed nothing.
    assert PublishedList.objects.filter(pool=pool).count() == 2
    assert open_period(pool).start == datetime.date(2026, 7, 1)

    response = client.post(url)
    plist = PublishedList.objects.filter(pool=pool).latest("pk")
    assert response.status_code == 302 and response["Location"] == reverse("ratings:list", args=[plist.pk])
    assert plist.valid_from == datetime.date(2027, 1, 1)
    assert ListEntry.objects.get(list=plist, member=rated_club["anna"]).rating == 1843
    assert open_period(pool).start == datetime.date(2027, 1, 1)


def test_close_preview_is_paged_like_the_list(client, rated_club, officer, period_ended, monkeypatch):
    """A federation's preview has 20,000 rows: the officer pages through it as through the list."""
    monkeypatch.setattr("ratings.views.officer.PER_PAGE", 3)
    client.force_login(officer)
    url = reverse("ratings:period_close", args=[open_period(rated_club["pool"]).pk])
    first, second = client.get(url), client.get(url + "?page=2")
    assert [row.record.rank for row in first.context["table"].page.object_list] == [1, 2, 3]
    assert [row.record.rank for row in second.context["table"].page.object_list] == [4]
    assert "Vorschau der neuen Liste (4 Einträge)" in second.content.decode()
    assert 'href="?page=2"' in first.content.decode()


def test_reopen_needs_a_reason_and_is_recorded(client, rated_club, officer):
    client.force_login(officer)
    period = closed_period(rated_club["pool"])
    url = reverse("ratings:period_reopen", args=[period.pk])
    html = client.post(url, {"reason": "   "}).content.decode()
    assert "Dieses Feld ist zwingend erforderlich." in html or "Eine Begründung ist erforderlich." in html
    assert PeriodReopening.objects.count() == 0
    response = client.post(url, {"reason": "Ergebnis der Runde 1 falsch erfasst"})
    assert response.status_code == 302
    reopening = PeriodReopening.objects.get()
    assert (reopening.period, reopening.reopened_by, reopening.reason) == (
        period, officer, "Ergebnis der Runde 1 falsch erfasst")
    period.refresh_from_db()
    assert period.state == PeriodState.OPEN
    html = client.get(reverse("ratings:officer")).content.decode()
    assert "Ergebnis der Runde 1 falsch erfasst" in html
    # The next period waits: it offers neither closing nor reopening.
    following = RatingPeriod.objects.get(pool=period.pool, start__gt=period.start)
    assert following.state == PeriodState.WAITING
    row = html.split(f"{following.start:%d.%m.%Y} –")[1].split("</tr>")[0]
    assert "<td>wartend</td>" in row
    assert "Wird geöffnet, sobald die Periode davor wieder abgeschlossen ist." in row
    assert "period_reopen" not in row and "/reopen" not in row and "Wieder öffnen" not in row


def test_reopening_an_older_period_is_refused_with_the_service_message(
    client, rated_club, officer, period_ended
):
    client.force_login(officer)
    client.post(reverse("ratings:period_close", args=[open_period(rated_club["pool"]).pk]))
    first = RatingPeriod.objects.get(pool=rated_club["pool"], start=datetime.date(2026, 1, 1))
    # The periods page offers reopening for the latest closed period only.
    page = client.get(reverse("ratings:officer")).content.decode()
    latest = RatingPeriod.objects.filter(pool=rated_club["pool"], state=PeriodState.CLOSED).latest("start")
    assert latest != first
    assert reverse("ratings:period_reopen", args=[latest.pk]) in page
    assert reverse("ratings:period_reopen", args=[first.pk]) not in page
    html = client.post(reverse("ratings:period_reopen", args=[first.pk]), {"reason": "Test"}).content.decode()
    assert "Nur die letzte abgeschlossene Periode" in html or "Only the latest closed period" in html
    assert PeriodReopening.objects.count() == 0
    # With the latest reopened, the one before it is the latest closed period, but its list is
    # no longer the pool's latest (the reopened period's list, withdrawn): not offered either.
    client.post(reverse("ratings:period_reopen", args=[latest.pk]), {"reason": "Korrektur"})
    assert PeriodReopening.objects.get().period == latest
    page = client.get(reverse("ratings:officer")).content.decode()
    assert "/reopen/" not in page and "Wieder öffnen" not in page
    refused = client.post(reverse("ratings:period_reopen", args=[first.pk]), {"reason": "Test"})
    assert refused.status_code == 200
    assert PeriodReopening.objects.count() == 1


def upload(name, text):
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/plain")


def test_csv_starting_list_preview_then_import(client, rated_club, officer):
    client.force_login(officer)
    pool = make_pool(name="Schnellschach", category="rapid", start=datetime.date(2026, 1, 1))
    url = reverse("ratings:import", args=[pool.pk])
    csv_text = 'name,birth_date,rating,games\n"Berger, Anna",2010,1650,5\n"Unbekannt, Max",1970,1500,0\n'
    response = client.post(url, {"kind": "csv", "file": upload("start.csv", csv_text)})
    html = response.content.decode()
    assert "Importvorschau" in html
    summary = "1 Wertungszahlen werden importiert, 1 Zeilen übersprungen."
    assert f'<p id="import-summary" class="lead">{summary}</p>' in html
    assert '<ul class="small" id="matched"><li>1. Berger, Anna: 1650</li></ul>' in html
    skipped = "Zeile 3: Unbekannt, Max (kein Mitglied passt)"
    assert f'<ul class="small" id="refused"><li>{skipped}</li></ul>' in html
    assert not PublishedList.objects.filter(pool=pool).exists()  # only a preview

    response = client.post(url, {"confirm": "1"})
    assert "Importbericht" in response.content.decode()
    plist = PublishedList.objects.get(pool=pool)
    entries = [(e.member, e.rating, e.games_count) for e in plist.entries.all()]
    assert entries == [(rated_club["anna"], 1650, 5)]
    # The stored upload is used once.
    assert client.post(url, {"confirm": "1"}).status_code == 302


def test_bad_csv_is_refused_with_a_translated_message(client, rated_club, officer):
    client.force_login(officer)
    pool = make_pool(name="Blitz", category="blitz", start=datetime.date(2026, 1, 1))
    html = client.post(reverse("ratings:import", args=[pool.pk]),
                       {"kind": "csv", "file": upload("x.csv", "foo,bar\n1,2\n")}).content.decode()
    assert "Die CSV-Datei braucht" in html or "The CSV file needs" in html
    assert not PublishedList.objects.filter(pool=pool).exists()


def test_trf_ratings_as_starting_list(client, officer):
    client.force_login(officer)
    pool = make_pool(name="Klassisch 2005", start=datetime.date(2005, 7, 1))
    url = reverse("ratings:import", args=[pool.pk])
    # Nobody of the file is a member yet: every rated line is reported, nothing is guessed.
    trf_file = upload("karl-mala-2005.trf", TRF.read_text())
    response = client.post(url, {"kind": "trf", "file": trf_file})
    # Publishing an empty starting list would lock the pool: the import is refused on the form.
    assert response.context["form"].errors["file"] == [
        "Keine der 146 Zeilen passt zu einem Mitglied. Importieren Sie zuerst die Mitglieder "
        "(CSV oder die TRF-Datei des Turniers), dann die Startliste."
    ]
    assert not PublishedList.objects.filter(pool=pool).exists()


def test_officer_pages_in_english(english, rated_club, officer):
    english.force_login(officer)
    pool = rated_club["pool"]
    html = english.get(reverse("ratings:period_close", args=[open_period(pool).pk])).content.decode()
    assert "Close the period of Standard" in html
    assert "Preview of the new list (4 entries); nothing is published until you confirm." in html
    assert ">1843<" in html
    html = english.get(reverse("ratings:period_reopen", args=[closed_period(pool).pk])).content.decode()
    assert "Reopen Standard, 2026-01-01 – 2026-06-30" in html
    html = english.get(reverse("ratings:import", args=[pool.pk])).content.decode()
    assert "Import into Standard" in html and "Starting list (CSV)" in html


def test_officer_pages_in_german(client, rated_club, officer):
    client.force_login(officer)
    pool = rated_club["pool"]
    html = client.get(reverse("ratings:period_reopen", args=[closed_period(pool).pk])).content.decode()
    assert "Standard, 01.01.2026 – 30.06.2026 wieder öffnen" in html
    html = client.get(reverse("ratings:import", args=[pool.pk])).content.decode()
    assert "Import in Standard" in html and "Startliste (CSV)" in html
    # The navigation offers the officer's pages.
    assert f'href="{reverse("ratings:officer")}">Wertungsreferent</a>' in html
