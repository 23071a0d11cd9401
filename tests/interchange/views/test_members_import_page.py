import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.interchange.views import MEMBERS_SESSION_KEY
from tests.factories import MemberFactory
from tests.language import speak

from ..conftest import db_counts
from .conftest import DE, EN, login_url

pytestmark = pytest.mark.django_db

URL = "/exchange/members/"
HEADER = "last_name;first_name;sex;birth_date;club;national_id;fide_id;fide_rating;title;email;phone\n"
CSV = HEADER + (
    "Huber;Anna;f;17.05.1990;SK Graz;12345;1601001;2100;WFM;anna@example.org;0660 123\n"
    "Gruber;Bernd;m;1985-02-03;SK Graz;;;;;;\n"
    "Huber;Anna;f;17.05.1990;SK Graz;;;;;;\n"
    "Adler;Max;m;01.01.1970;;;;1850;;;\n"
)


def upload(text: str | bytes, name: str = "members.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8") if isinstance(text, str) else text)


def preview(client, text, lang=EN):
    return speak(client, lang).post(URL, {"file": upload(text)})


def confirm(client, lang=EN):
    return speak(client, lang).post(URL, {"confirm": "1"})


@pytest.fixture
def adler(home_club):
    return MemberFactory(last_name="Adler", first_name="Max", birth_date="1970-01-01", birth_year=None,
                         club=home_club, fide_rating=1700)


def test_preview_creates_nothing_and_confirm_saves_what_it_showed(official_client, adler):
    before = db_counts()
    response = preview(official_client, CSV)
    assert db_counts() == before
    summary = "2 members created, 1 updated, 1 duplicate row skipped."
    will = "2 members will be created, 1 will be updated; 1 duplicate row will be skipped."
    report = response.context["report"]
    assert {key: report[key] for key in ("summary", "preview", "done", "created", "updated",
                                         "duplicates")} == {
        "summary": summary, "preview": will, "done": False,
        "created": ["Huber, Anna", "Gruber, Bernd"], "updated": ["Adler, Max"],
        "duplicates": ["Row 4: the same name and birth date as row 2"],
    }
    page = response.content.decode()
    assert f'<p id="import-summary" class="lead">{will}</p>' in page
    duplicate = "Row 4: the same name and birth date as row 2"
    assert f'<ul class="small" id="duplicates"><li>{duplicate}</li></ul>' in page
    adler.refresh_from_db()
    assert adler.fide_rating == 1700

    response = confirm(official_client)
    assert response.status_code == 200
    assert response.context["report"]["summary"] == summary
    after = db_counts()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {"Club": 1, "Member": 2}
    adler.refresh_from_db()
    assert adler.fide_rating == 1850
    anna = Member.objects.get(last_name="Huber")
    assert (anna.club.name, anna.fide_id, anna.fide_title, anna.email) == (
        "SK Graz", 1601001, "WFM", "anna@example.org",
    )
    assert MEMBERS_SESSION_KEY not in official_client.session


def test_german_preview(official_client, home_club):
    response = preview(official_client, CSV, lang=DE)
    assert response.context["report"]["preview"] == (
        "3 Mitglieder werden angelegt, 0 werden aktualisiert; 1 doppelte Zeile wird übersprungen."
    )
    duplicate = "Zeile 4: derselbe Name und dasselbe Geburtsdatum wie Zeile 2"
    assert f"<li>{duplicate}</li>" in response.content.decode()


@pytest.mark.parametrize(
    "lang, row, message",
    [
        (EN, "Maier;Carl;x;;;;;;;;", "Row 3: sex x is not m or f."),
        (DE, "Maier;Carl;x;;;;;;;;", "Zeile 3: das Geschlecht x ist weder m noch f."),
        (EN, "Maier;Carl;m;31.02.1990;;;;;;;",
         "Row 3: birth date 31.02.1990 is neither dd.mm.yyyy nor yyyy-mm-dd."),
        (DE, "Maier;Carl;m;31.02.1990;;;;;;;",
         "Zeile 3: das Geburtsdatum 31.02.1990 ist weder TT.MM.JJJJ noch JJJJ-MM-TT."),
    ],
)
def test_bad_row_shows_the_error_and_changes_nothing(official_client, home_club, lang, row, message):
    before = db_counts()
    text = HEADER + "Huber;Anna;f;17.05.1990;SK Graz;;;;;;\n" + row + "\n"
    response = preview(official_client, text, lang)
    assert response.context["form"].errors["file"] == [message]
    assert html.escape(message) in response.content.decode()
    assert db_counts() == before
    assert MEMBERS_SESSION_KEY not in official_client.session


@pytest.mark.parametrize(
    "lang, message",
    [
        (EN, "The CSV file lacks the columns birth_date."),
        (DE, "In der CSV-Datei fehlen die Spalten birth_date."),
    ],
)
def test_missing_columns_are_refused(official_client, home_club, lang, message):
    before = db_counts()
    response = preview(official_client, "last_name;first_name\nHuber;Anna\n", lang)
    assert response.context["form"].errors["file"] == [message]
    assert db_counts() == before


@pytest.mark.parametrize(
    "lang, message",
    [(EN, "The file is larger than 5 MB."), (DE, "Die Datei ist größer als 5 MB.")],
)
def test_file_over_5_mb_is_refused(official_client, lang, message):
    before = db_counts()
    big = CSV.encode() + b"\n" * (5 * 1024 * 1024 + 1 - len(CSV.encode()))
    response = speak(official_client, lang).post(URL, {"file": upload(big)})
    assert response.context["form"].errors["file"] == [message]
    assert db_counts() == before


@pytest.mark.slow
def test_file_of_exactly_5_mb_is_accepted(official_client, home_club):
    exact = CSV.encode() + b"\n" * (5 * 1024 * 1024 - len(CSV.encode()))
    response = speak(official_client, EN).post(URL, {"file": upload(exact)})
    assert response.context["report"]["summary"] == "3 members created, 0 updated, 1 duplicate row skipped."


def test_latin_1_file_is_read(official_client, home_club):
    text = HEADER + "Müller;Jörg;m;01.02.1960;SK Graz;;;;;;\n"
    preview(official_client, text.encode("latin-1"))
    response = confirm(official_client)
    assert response.context["report"]["created"] == ["Müller, Jörg"]
    assert Member.objects.filter(last_name="Müller", first_name="Jörg").count() == 1


def test_staff_may_import(client, staff_user, home_club):
    client.force_login(staff_user)
    preview(client, CSV)
    confirm(client)
    assert Member.objects.filter(last_name__in=["Huber", "Gruber", "Adler"]).count() == 3


def test_confirm_without_a_preview_imports_nothing(official_client, home_club):
    before = db_counts()
    response = confirm(official_client)
    assert (response.status_code, response["Location"]) == (302, URL)
    assert [str(m) for m in response.wsgi_request._messages] == ["Nothing to import: upload the file again."]
    assert db_counts() == before


def test_visitor_goes_to_login_and_member_is_refused(client, plain_user, home_club):
    before = db_counts()
    assert client.get(URL)["Location"] == login_url(URL)
    response = client.post(URL, {"file": upload(CSV)})
    assert (response.status_code, response["Location"]) == (302, login_url(URL))
    client.force_login(plain_user)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"file": upload(CSV)}).status_code == 403
    assert client.post(URL, {"confirm": "1"}).status_code == 403
    assert db_counts() == before


def test_member_list_links_the_import_for_officials_only(client, plain_user, official, home_club):
    link = f'href="{reverse("interchange:members_import")}"'
    client.force_login(plain_user)
    assert link not in client.get(reverse("clubs:member_list")).content.decode()
    client.force_login(official)
    assert link in client.get(reverse("clubs:member_list")).content.decode()


GERMAN = (
    "Nachname;Vorname;Geburtsdatum;Geschlecht;Verein;ÖSB-Nr.;FIDE-ID;Elo;Titel;E-Mail;Telefon;Bemerkung\n"
    "Huber;Anna;17.05.1990;w;SK Graz;12345;1601001;2100;WFM;anna@example.org;0660 123;Jugendwartin\n"
)


def test_german_headers_are_read_and_the_preview_shows_every_field_and_column(official_client, home_club):
    response = preview(official_client, GERMAN, lang=DE)

    report = response.context["report"]
    # The file's headers as the CSV reader gives them (folded to lower case).
    assert report["columns"] == [
        ("nachname", "Nachname"), ("vorname", "Vorname"), ("geburtsdatum", "Geburtsdatum"),
        ("geschlecht", "Geschlecht"), ("verein", "Verein"), ("ösb-nr.", "nationale ID"),
        ("fide-id", "FIDE-ID"), ("elo", "FIDE-Elo"), ("titel", "Titel"), ("e-mail", "E-Mail"),
        ("telefon", "Telefon")]
    assert report["ignored"] == ["bemerkung"]
    assert [[value for value, _role in row] for row in report["created_cells"]] == [
        ["Huber, Anna", "17.05.1990", "weiblich", "SK Graz", "12345", "1601001", "2100", "WFM",
         "anna@example.org", "0660 123"]]
    # On a phone the name and birth date stay on the screen (primary); every other field is shown
    # too and scrolls beside them.
    assert [role for _value, role in report["created_cells"][0]] == ["col-primary", "col-primary"] + [""] * 8
    assert [label for label, _role in report["head"]][:3] == ["Geburtsdatum", "Geschlecht", "Verein"]
    page = response.content.decode()
    assert "„ösb-nr.“ → nationale ID" in html.unescape(page)
    assert '<td class="">anna@example.org</td>' in page
    assert '<td class="">1601001</td>' in page
    assert not Member.objects.filter(last_name="Huber").exists()
    confirm(official_client, lang=DE)
    anna = Member.objects.get(last_name="Huber")
    assert (anna.national_id, anna.fide_id, anna.fide_rating, anna.club.name) == ("12345", 1601001, 2100,
                                                                                  "SK Graz")


def test_two_headers_for_one_field_refuse_the_file(official_client, home_club):
    response = preview(official_client, "Nachname;Vorname;Geburtsdatum;Elo;FIDE-Elo\nHuber;Anna;;1;2\n")

    assert "both give the FIDE rating" in html.unescape(response.content.decode())
    assert not Member.objects.exists()
