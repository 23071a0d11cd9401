"""The rating officer's pages: upload, columns, preview, apply as a background job; the member
page; handing a kept list to a new pool as its starting list."""

import datetime
import io

import openpyxl
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubrating.jobs.models import Job, JobState
from clubrating.national_list.mapping import mapping_remembered
from clubrating.national_list.models import NationalList, NationalRating
from clubrating.national_list.views import SESSION_KEY
from ratings.models import ListEntry, PublishedList
from tests.language import speak
from tests.ratings.factories import make_pool

from .conftest import COLUMNS, LIST_CSV

pytestmark = pytest.mark.django_db

INDEX = reverse("national_list:index")
MAPPING = reverse("national_list:mapping")
APPLY = reverse("national_list:apply")


@pytest.fixture
def officer(db):
    user = User.objects.create_user("officer", password="pw-officer")
    user.groups.add(Group.objects.get_or_create(name=settings.RATING_OFFICERS_GROUP)[0])
    return user


@pytest.fixture
def officer_client(client, officer):
    client.force_login(officer)
    return speak(client, "en")


def upload(client, raw=None, name="oesb-2026-10.csv", day="1.10.2026"):
    raw = LIST_CSV.encode() if raw is None else raw
    return client.post(INDEX, {"file": SimpleUploadedFile(name, raw), "list_date": day})


def choose(client, columns=COLUMNS):
    return client.post(MAPPING, {field: columns.get(field, "") for field in
                                 ("national_id", "rating", "games", "name", "birth_year", "club")})


def test_the_flow_upload_columns_preview_apply(officer_client, officer, members):
    response = upload(officer_client)
    assert (response.status_code, response["Location"]) == (302, MAPPING)
    html = officer_client.get(MAPPING).content.decode()
    # First use: the columns are guessed from the header names.
    assert '<option value="elo" selected>elo</option>' in html
    assert '<option value="ösb-nr" selected>ösb-nr</option>' in html

    html = choose(officer_client).content.decode()
    assert '<dd class="col-4 col-md-8" id="count-matched">3</dd>' in html
    assert '<dd class="col-4 col-md-8" id="count-changes">2</dd>' in html
    assert '<dd class="col-4 col-md-8" id="count-unknown">1</dd>' in html
    assert '<dd class="col-4 col-md-8" id="count-missing">1</dd>' in html
    assert '<dd class="col-4 col-md-8" id="count-invalid">2</dd>' in html
    changes = "<li>Huber, Anna: — → 1650</li><li>Maier, Karl: — → 1712</li>"
    assert f'<ul class="small" id="changes">{changes}</ul>' in html
    assert NationalRating.objects.count() == 0 and mapping_remembered() == {}  # a preview saves nothing

    response = officer_client.post(APPLY, {"confirm": "1"})
    job = Job.objects.get()
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.key, job.started_by, job.upload) == (
        JobState.DONE, "national-list-import", officer, None)
    assert job.message == "National list saved: 3 members, 3 entries changed."
    assert sorted(NationalRating.objects.values_list("national_id", "rating")) == [
        ("1001", 1650), ("1002", 1712), ("1003", None)]
    assert NationalList.objects.get().list_date == datetime.date(2026, 10, 1)
    assert mapping_remembered() == COLUMNS
    assert SESSION_KEY not in officer_client.session
    html = officer_client.get(response["Location"]).content.decode()
    assert '<dd class="col-4 col-md-8" id="count-saved">3</dd>' in html

    # The next file: the remembered columns are offered, and the same list again changes nothing.
    upload(officer_client)
    assert '<option value="elo" selected>elo</option>' in officer_client.get(MAPPING).content.decode()
    choose(officer_client)
    officer_client.post(APPLY, {"confirm": "1"})
    assert Job.objects.latest("pk").message == "National list saved: 3 members, 0 entries changed."


def test_an_xlsx_workbook_is_uploaded_like_a_csv_file(officer_client, members):
    book = openpyxl.Workbook()
    for line in LIST_CSV.splitlines():
        book.active.append(line.split(";"))
    raw = io.BytesIO()
    book.save(raw)
    upload(officer_client, raw=raw.getvalue(), name="oesb.xlsx")
    html = choose(officer_client).content.decode()
    assert '<dd class="col-4 col-md-8" id="count-matched">3</dd>' in html
    assert "<li>Line 6: column “elo” “4000” is not a rating: 0 (unrated) or 100 to 3000.</li>" in html


def test_a_malformed_file_is_refused_on_the_upload_page_in_german(officer_client, members):
    speak(officer_client, "de-at")
    html = upload(officer_client, raw=b"PK\x03\x04kaputt", name="liste.xlsx").content.decode()
    assert ("Die Datei ist weder eine CSV-Tabelle noch eine lesbare Excel-Arbeitsmappe (XLSX)." in html)
    html = upload(officer_client, raw=LIST_CSV.replace("Anna", "An\x01na").encode()).content.decode()
    assert "Zeile 2: Spalte 15 enthält ein Steuerzeichen (U+0001)." in html
    assert SESSION_KEY not in officer_client.session and NationalList.objects.count() == 0


def test_back_from_the_preview_the_columns_just_chosen_are_offered(officer_client, members):
    upload(officer_client)
    choose(officer_client, {"national_id": "ösb-nr", "rating": "elo", "games": "geburtsjahr"})
    html = officer_client.get(MAPPING).content.decode()
    assert '<option value="geburtsjahr" selected>geburtsjahr</option>' in html
    assert '<option value="partien" selected>partien</option>' not in html


def test_a_mapping_without_the_rating_is_refused_by_the_form(officer_client, members):
    upload(officer_client)
    html = choose(officer_client, {"national_id": "ösb-nr", "games": "elo"}).content.decode()
    assert "This field is required." in html
    html = choose(officer_client, {**COLUMNS, "games": "elo"}).content.decode()
    assert "Choose each column for one field only." in html


def test_the_pages_are_the_rating_officers(client, members):
    user = User.objects.create_user("official")
    user.groups.add(Group.objects.get_or_create(name=settings.OFFICIALS_GROUP)[0])
    client.force_login(user)
    speak(client, "en")
    assert client.get(INDEX).status_code == 403
    assert upload(client).status_code == 403
    assert client.post(APPLY, {"confirm": "1"}).status_code == 403
    assert NationalList.objects.count() == 0


def test_apply_without_a_preview_imports_nothing(officer_client, members):
    response = officer_client.post(APPLY, {"confirm": "1"}, follow=True)
    assert "Nothing to import: upload the file again." in response.content.decode()
    assert Job.objects.count() == 0


def test_the_member_page_shows_the_national_lists(officer_client, members):
    upload(officer_client)
    choose(officer_client)
    officer_client.post(APPLY, {"confirm": "1"})
    speak(officer_client, "de-at")
    html = officer_client.get(members["Huber"].get_absolute_url()).content.decode()
    assert '<h2 class="h5" id="national-heading">Nationale Elo-Liste</h2>' in html
    assert ('<tr><td class="text-nowrap">01.10.2026</td><td class="text-end">1650</td>'
            '<td class="text-end">12</td></tr>') in html


def test_a_kept_list_becomes_a_new_pools_starting_list_when_the_officer_confirms(officer_client, members):
    upload(officer_client)
    choose(officer_client)
    officer_client.post(APPLY, {"confirm": "1"})
    nlist = NationalList.objects.get()
    pool = make_pool(name="Österreich")
    url = reverse("national_list:start_list", args=[nlist.pk])
    html = officer_client.post(url, {"pool": pool.pk}).content.decode()
    matched = "<li>1. Maier, Karl: 1712</li><li>2. Huber, Anna: 1650</li>"
    assert f'<ul class="small" id="matched">{matched}</ul>' in html
    assert PublishedList.objects.count() == 0  # the preview saved nothing
    officer_client.post(url, {"confirm": "1"})
    plist = PublishedList.objects.get(pool=pool)
    assert plist.note == "National list of 2026-10-01"
    entries = ListEntry.objects.filter(list=plist).values_list("member__last_name", "rating", "games_count")
    assert sorted(entries) == [("Huber", 1650, 12), ("Maier", 1712, 40)]
    # A pool with a published list is no longer offered.
    assert f'<option value="{pool.pk}">' not in officer_client.get(url).content.decode()


def test_the_files_headers_and_values_are_escaped(officer_client, members):
    raw = b"<b>id</b>;elo;name\n1001;1650;<script>x()</script>\n"
    upload(officer_client, raw=raw, name="<b>liste.csv")
    html = officer_client.get(MAPPING).content.decode()
    assert '<option value="&lt;b&gt;id&lt;/b&gt;">&lt;b&gt;id&lt;/b&gt;</option>' in html
    assert "<b>id</b>" not in html and "<b>liste" not in html
    chosen = {"national_id": "<b>id</b>", "rating": "elo", "name": "name"}
    html = choose(officer_client, chosen).content.decode()
    assert '<dd class="col-4 col-md-8" id="count-matched">1</dd>' in html
    assert "<script>x()</script>" not in html
    assert "&lt;b&gt;liste.csv" in html


def test_a_second_import_waits_for_the_first(officer_client, officer, members):
    Job.objects.create(key="national-list-import", title="Nationale Liste: a.csv", started_by=officer)
    upload(officer_client)
    choose(officer_client)
    html = officer_client.post(APPLY, {"confirm": "1"}, follow=True).content.decode()
    assert "“Nationale Liste: a.csv” is already waiting or running (started by officer, " in html
    assert (Job.objects.count(), NationalList.objects.count()) == (1, 0)
