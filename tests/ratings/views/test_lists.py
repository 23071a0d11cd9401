"""Rating list pages: pools overview, live and published lists, filters, print, PDF, exports."""

import datetime
import io

import openpyxl
import pytest
from django.urls import reverse

from clubrating.clubs.models import Club
from ratings.services.lists import EntryData, list_publish
from tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def names(response):
    return [row.name for row in response.context["table"].data]


def test_pool_list_links_the_live_list_and_every_published_list(client, rated_club):
    html = client.get(reverse("ratings:pool_list")).content.decode()
    assert reverse("ratings:live", args=[rated_club["pool"].pk]) in html
    assert reverse("ratings:list", args=[rated_club["list"].pk]) in html
    assert reverse("ratings:list", args=[rated_club["start_list"].pk]) in html
    assert "Liste vom 01.07.2026" in html
    assert "offene Periode 01.07.2026 – 31.12.2026" in html


def test_published_list_in_german(client, rated_club):
    response = client.get(reverse("ratings:list", args=[rated_club["list"].pk]))
    html = response.content.decode()
    assert names(response) == ["Huber, Bernd", "Berger, Anna", "Moser, Clara", "Alt, Dora"]
    assert "Wertungsliste: Standard" in html
    assert "Gültig ab 01.07.2026" in html
    assert "Periode 01.01.2026 – 30.06.2026" in html
    assert ">1.835<" in html and ">+5<" in html and ">1.977<" in html and ">−3<" in html
    assert '<abbr title="Klasse A">A</abbr>' in html


def test_published_list_in_english(english, rated_club):
    html = english.get(reverse("ratings:list", args=[rated_club["list"].pk])).content.decode()
    assert "Rating list: Standard" in html
    assert "Valid from 2026-07-01" in html
    assert ">1,835<" in html and ">1,977<" in html
    assert '<abbr title="Class A">A</abbr>' in html


def test_live_list_is_marked_provisional(client, english, rated_club):
    response = client.get(reverse("ratings:live", args=[rated_club["pool"].pk]))
    html = response.content.decode()
    assert names(response) == ["Huber, Bernd", "Berger, Anna", "Moser, Clara", "Alt, Dora"]
    rows = {row.name: row for row in response.context["table"].data}
    anna = rows["Berger, Anna"]
    assert (anna.rating, anna.change, anna.games) == (1843, 8, 12)
    assert (rows["Moser, Clara"].rating, rows["Moser, Clara"].change) == (1691, -9)
    assert rows["Huber, Bernd"].change is None
    assert '<span class="provisional" title="vorläufig">1.843</span>' in html
    assert "Live-Wertungsliste: Standard" in html
    english_html = english.get(reverse("ratings:live", args=[rated_club["pool"].pk])).content.decode()
    assert '<span class="provisional" title="provisional">1,843</span>' in english_html


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"club": "SV Gäste"}, ["Moser, Clara"]),
        ({"sex": "m"}, ["Huber, Bernd"]),
        ({"age": "U18"}, ["Berger, Anna"]),  # born 2010: 16 in 2026
        ({"age": "U16"}, ["Berger, Anna"]),  # born 2010 = 2026 - 16: still U16
        ({"age": "U14"}, []),
        ({"age": "S65"}, ["Huber, Bernd", "Alt, Dora"]),  # 1955 and 1960 <= 2026 - 65
        ({"active": "on"}, ["Huber, Bernd", "Berger, Anna", "Moser, Clara"]),
        ({"sex": "f", "active": "on"}, ["Berger, Anna", "Moser, Clara"]),
    ],
)
def test_filters(client, rated_club, params, expected):
    response = client.get(reverse("ratings:list", args=[rated_club["list"].pk]), params)
    assert names(response) == expected
    live = client.get(reverse("ratings:live", args=[rated_club["pool"].pk]), params)
    assert names(live) == expected


def test_sorting_by_name_and_by_change(client, rated_club):
    url = reverse("ratings:list", args=[rated_club["list"].pk])
    by_name = names(client.get(url, {"sort": "name"}))
    assert by_name == ["Alt, Dora", "Berger, Anna", "Huber, Bernd", "Moser, Clara"]
    assert names(client.get(url, {"sort": "-change"}))[0] == "Berger, Anna"


def test_print_layout_has_the_header_and_no_navigation(client, rated_club):
    url = reverse("ratings:list_print", args=[rated_club["list"].pk])
    html = client.get(url, {"age": "U18"}).content.decode()
    assert "navbar" not in html
    assert '<div class="print-club">Schachklub Donaustadt</div>' in html
    # The running header repeated on every printed page, and the page numbers.
    assert ('@top-left { content: "Schachklub Donaustadt · Wertungsliste: Standard\\A '
            'Regelwerk oesb-classic') in html
    assert '· Periode 01.01.2026 – 30.06.2026 · Gültig ab 01.07.2026 · Altersklasse: U18"; }' in html
    assert 'content: "Seite " counter(page) " von " counter(pages)' in html
    assert "Berger, Anna" in html and "Huber, Bernd" not in html


def test_pdf_is_a_pdf(client, rated_club):
    response = client.get(reverse("ratings:list_pdf", args=[rated_club["list"].pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="Standard-2026-07-01.pdf"'
    assert response.content.startswith(b"%PDF-")
    live = client.get(reverse("ratings:live_pdf", args=[rated_club["pool"].pk]))
    assert live["Content-Type"] == "application/pdf" and live.content.startswith(b"%PDF-")


def test_csv_export_in_both_languages(client, english, rated_club):
    url = reverse("ratings:list", args=[rated_club["list"].pk])
    german = client.get(url, {"_export": "csv", "active": "on"})
    assert german["Content-Type"].startswith("text/csv")
    lines = german.content.decode().splitlines()
    assert lines[0] == ("Rang,Name,Titel,Verein,Geboren,Geschlecht,Wertung,Veränderung,Partien,"
                        "In der Periode,Kennzeichen,Klasse")
    assert lines[2] == '2,"Berger, Anna",,Schachklub Donaustadt,2010,w,1835,5,11,1,,A'
    assert len(lines) == 4  # header + the three active members
    english_lines = english.get(url, {"_export": "csv"}).content.decode().splitlines()
    assert english_lines[0] == "Rank,Name,Title,Club,Born,Sex,Rating,Change,Games,In period,Markers,Class"
    assert english_lines[2] == '2,"Berger, Anna",,Schachklub Donaustadt,2010,f,1835,5,11,1,,A'


def test_xlsx_export(client, rated_club):
    response = client.get(reverse("ratings:live", args=[rated_club["pool"].pk]), {"_export": "xlsx"})
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:8] == (
        "Rang", "Name", "Titel", "Verein", "Geboren", "Geschlecht", "Wertung", "Veränderung")
    assert rows[2][1] == "Berger, Anna" and rows[2][6] == 1843 and rows[2][7] == 8


def test_list_queries_do_not_grow_with_rows(client, rated_club, django_assert_max_num_queries):
    pool = rated_club["pool"]
    club = Club.objects.get(name="SV Gäste")
    members = [MemberFactory(club=club) for _ in range(60)]
    plist = list_publish(pool=pool, entries={m.pk: EntryData(rating=1500 + i) for i, m in enumerate(members)},
                         kind="start", valid_from=pool.start_date)
    small = rated_club["list"]
    for target in (small, plist):
        with django_assert_max_num_queries(8):
            assert client.get(reverse("ratings:list", args=[target.pk])).status_code == 200
        with django_assert_max_num_queries(8):
            assert client.get(reverse("ratings:list_print", args=[target.pk])).status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get(reverse("ratings:live", args=[pool.pk])).status_code == 200


PUBLIC_VIEWS = ["pool_list", "live", "live_print", "live_pdf", "list", "list_print", "list_pdf"]


@pytest.mark.parametrize("name", PUBLIC_VIEWS)
def test_visitors_need_public_ratings(client, rated_club, plain_user, name):
    target = rated_club["pool"] if name.startswith("live") else rated_club["list"]
    args = [] if name == "pool_list" else [target.pk]
    url = reverse(f"ratings:{name}", args=args)
    Club.objects.filter(is_home=True).update(public_ratings=False)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(plain_user)
    assert client.get(url).status_code == 200  # members (logged in) always see the lists


def test_live_print_header_says_provisional_and_today(client, rated_club):
    today = datetime.date.today()
    html = client.get(reverse("ratings:live_print", args=[rated_club["pool"].pk])).content.decode()
    assert "<h1>Live-Wertungsliste: Standard</h1>" in html
    assert f"Stand {today:%d.%m.%Y} – vorläufig bis zum Abschluss der Periode" in html
    assert "Periode 01.07.2026 – 31.12.2026" in html


def test_pool_list_in_english(english, rated_club):
    html = english.get(reverse("ratings:pool_list")).content.decode()
    assert "List of 2026-07-01" in html and "open period 2026-07-01 – 2026-12-31" in html
