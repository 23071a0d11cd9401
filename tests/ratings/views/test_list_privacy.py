"""What each reader sees of a rating list (clubrating.clubs.privacy through ratings.lists.faces):
page, print layout, PDF, CSV and XLSX; visitors, members and officials; the cache never mixes
them."""

import csv
import datetime
import io

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pypdf import PdfReader

from clubrating.clubs.models import Club, Member

pytestmark = pytest.mark.django_db


# Every test here reads the rated club as built: it is built once for the module and each test runs
# in a savepoint with its own instances (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared


@pytest.fixture
def restricted(rated_club):
    """Bernd restricts his profile; Clara is a minor without recorded consent."""
    Member.objects.filter(pk=rated_club["bernd"].pk).update(profile_restricted=True)
    Member.objects.filter(pk=rated_club["clara"].pk).update(birth_year=datetime.date.today().year - 12)
    return rated_club


def _csv(response, delimiter=";") -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig")),
                           delimiter=delimiter))


def _row(rows, name):
    return next(row for row in rows if any(name in cell for cell in row))


def test_visitors_get_no_sex_and_no_birth_year_unless_published(client, restricted):
    url = reverse("ratings:live", args=[restricted["pool"].pk])
    rows = _csv(client.get(url, {"_export": "csv"}))
    assert rows[0] == ["Rang", "Name", "Titel", "Verein", "Wertung", "Veränderung", "Partien",
                       "In der Periode", "Kennzeichen", "Klasse"]
    page = client.get(url).content.decode()
    assert ">Geschlecht<" not in page and ">Geboren<" not in page
    assert 'name="sex"' not in page and 'name="age"' not in page
    Club.objects.filter(is_home=True).update(public_birth_years=True)
    rows = _csv(client.get(url, {"_export": "csv"}))
    assert "Geboren" in rows[0] and "Geschlecht" not in rows[0]
    assert _row(rows, "Berger, Anna")[rows[0].index("Geboren")] == "2010"


def test_restricted_profiles_show_their_name_and_ratings_only(client, restricted):
    Club.objects.filter(is_home=True).update(public_birth_years=True)
    url = reverse("ratings:live", args=[restricted["pool"].pk])
    rows = _csv(client.get(url, {"_export": "csv"}))
    header = rows[0]
    bernd = _row(rows, "Huber, Bernd")
    assert (bernd[header.index("Verein")], bernd[header.index("Geboren")]) == ("", "")
    assert bernd[header.index("Wertung")] == "1977"  # his live rating: the ratings stay
    clara = _row(rows, "Moser, Clara")
    assert (clara[header.index("Verein")], clara[header.index("Geboren")]) == ("", "")
    page = client.get(url).content.decode()
    bernd_url = restricted["bernd"].get_absolute_url()
    assert f'href="{bernd_url}"' not in page and "Huber, Bernd" in page
    assert f'href="{restricted["anna"].get_absolute_url()}"' in page


@pytest.mark.parametrize("face", ["list_print", "list_pdf", "list_xlsx"])
def test_every_face_of_a_published_list_follows_the_rule(client, restricted, face):
    plist = restricted["list"]
    if face == "list_pdf":
        response = client.get(reverse("ratings:list_pdf", args=[plist.pk]))
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    elif face == "list_xlsx":
        response = client.get(reverse("ratings:list", args=[plist.pk]), {"_export": "xlsx"})
        sheet = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content))).active
        text = "\n".join(" ".join(str(c) for c in row if c is not None)
                         for row in sheet.iter_rows(values_only=True))
    else:
        text = b"".join(client.get(reverse("ratings:list_print", args=[plist.pk])).streaming_content).decode()
    assert "Geschlecht" not in text and "Geboren" not in text
    assert "1955" not in text and "2010" not in text  # birth years
    assert "Huber, Bernd" in text and "Berger, Anna" in text


def test_officials_see_everything_and_the_cache_keeps_readers_apart(client, restricted, official):
    url = reverse("ratings:live", args=[restricted["pool"].pk])
    visitor = client.get(url).content.decode()  # cached for visitors first
    client.force_login(official)
    seen = client.get(url).content.decode()
    assert ">Geschlecht<" in seen and ">Geboren<" in seen and 'name="sex"' in seen
    assert f'href="{restricted["bernd"].get_absolute_url()}"' in seen
    rows = _csv(client.get(url, {"_export": "csv"}))
    bernd = _row(rows, "Huber, Bernd")
    assert bernd[rows[0].index("Geschlecht")] == "m" and bernd[rows[0].index("Geboren")] == "1955"
    client.logout()
    again = client.get(url).content.decode()
    assert ">Geschlecht<" not in visitor and ">Geschlecht<" not in again
    assert f'href="{restricted["bernd"].get_absolute_url()}"' not in again


def test_a_member_sees_what_visitors_see(client, restricted):
    client.force_login(User.objects.create_user("mitglied"))
    rows = _csv(client.get(reverse("ratings:live", args=[restricted["pool"].pk]), {"_export": "csv"}))
    assert "Geschlecht" not in rows[0] and "Geboren" not in rows[0]
    assert _row(rows, "Huber, Bernd")[rows[0].index("Verein")] == ""


def test_a_sex_filter_in_the_address_is_ignored_for_visitors(client, restricted):
    url = reverse("ratings:live", args=[restricted["pool"].pk])
    everybody = _csv(client.get(url, {"_export": "csv"}))
    women = _csv(client.get(url, {"_export": "csv", "sex": "f", "age": "U18"}))
    assert women == everybody


def test_english_headers_follow_the_same_rule(english, restricted):
    rows = _csv(english.get(reverse("ratings:live", args=[restricted["pool"].pk]), {"_export": "csv"}), ",")
    assert "Sex" not in rows[0] and "Born" not in rows[0] and "Club" in rows[0]


def test_a_club_or_age_filter_finds_no_restricted_profile_on_any_face(client, restricted, official):
    """Bernd's row keeps his club and birth year back; a filter by them must not find him either."""
    Club.objects.filter(is_home=True).update(public_birth_years=True)
    url = reverse("ratings:live", args=[restricted["pool"].pk])
    for query in ({"club": "Schachklub Donaustadt"}, {"age": "S65"}):
        page = client.get(url, query).content.decode()
        rows = _csv(client.get(url, {**query, "_export": "csv"}))
        assert "Huber, Bernd" not in page and not any("Huber, Bernd" in row for row in rows), query
        assert "Alt, Dora" in page
    client.force_login(official)
    assert "Huber, Bernd" in client.get(url, {"club": "Schachklub Donaustadt"}).content.decode()
