"""Rating list pages: pools overview, live and published lists, filters, print, PDF, exports."""

import csv
import datetime
import io
import re

import openpyxl
import pytest
from django.db import connection
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from ratings.services.lists import EntryData, list_publish
from tests.factories import GameFactory, MemberFactory, RoundFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_official(client, english, official):
    """These tests read the lists as an official, who sees every column (sex, birth year) and
    every row in full; what visitors and members see is tests/ratings/views/test_list_privacy.py."""
    client.force_login(official)
    english.force_login(official)


# Every test here reads the same rated club: it is built once for the module and each test reads its
# own instances of it (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared


def names(response):
    """The names of the table's rows, in the order shown."""
    return re.findall(r'<td class="col-primary name"><a href="[^"]*">([^<]*)</a></td>',
                      response.content.decode())


def table_rows(response):
    """The cells' texts of the table's rows (tags removed)."""
    html = response.content.decode()
    body = html[html.index("<tbody"):html.index("</tbody>")]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def streamed(response) -> str:
    return b"".join(response.streaming_content).decode("utf-8-sig")


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
    # Ratings are never digit-grouped; changes carry their sign (a real minus).
    assert ">1835<" in html and ">+5<" in html and ">1977<" in html and ">−3<" in html
    assert "1.835" not in html
    assert '<abbr title="Klasse A">A</abbr>' in html


def test_published_list_in_english(english, rated_club):
    html = english.get(reverse("ratings:list", args=[rated_club["list"].pk])).content.decode()
    assert "Rating list: Standard" in html
    assert "Valid from 2026-07-01" in html
    assert ">1835<" in html and ">1977<" in html
    assert '<abbr title="Class A">A</abbr>' in html


@pytest.mark.usefixtures("as_official")
def test_live_list_is_marked_provisional(client, english, rated_club):
    response = client.get(reverse("ratings:live", args=[rated_club["pool"].pk]))
    html = response.content.decode()
    assert names(response) == ["Huber, Bernd", "Berger, Anna", "Moser, Clara", "Alt, Dora"]
    # Rank, name, title, club, born, sex, rating, change, games, in period, markers, class.
    assert table_rows(response) == [
        ["1", "Huber, Bernd", "", "Schachklub Donaustadt", "1955", "m", "1977", "", "51", "0", "", "A"],
        ["2", "Berger, Anna", "", "Schachklub Donaustadt", "2010", "w", "1843", "+8", "12", "1", "", "A"],
        ["3", "Moser, Clara", "", "SV Gäste", "1990", "w", "1691", "−9", "21", "1", "", "B"],
        ["4", "Alt, Dora", "", "Schachklub Donaustadt", "1960", "w", "1500", "", "30", "0", "", "C"],
    ]
    assert '<span class="provisional" title="vorläufig">1843</span>' in html
    assert "Live-Wertungsliste: Standard" in html
    english_html = english.get(reverse("ratings:live", args=[rated_club["pool"].pk])).content.decode()
    assert '<span class="provisional" title="provisional">1843</span>' in english_html


@pytest.mark.usefixtures("as_official")
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
    assert names(client.get(url, {"sort": "-name"})) == by_name[::-1]
    # Equal changes in rank order.
    descending = ["Berger, Anna", "Moser, Clara", "Alt, Dora", "Huber, Bernd"]
    assert names(client.get(url, {"sort": "-change"})) == descending
    ascending = ["Huber, Bernd", "Moser, Clara", "Alt, Dora", "Berger, Anna"]
    assert names(client.get(url, {"sort": "change"})) == ascending
    # No change (not played in the period) sorts last both ways.
    live = reverse("ratings:live", args=[rated_club["pool"].pk])
    assert names(client.get(live, {"sort": "change"}))[:2] == ["Moser, Clara", "Berger, Anna"]
    assert names(client.get(live, {"sort": "-change"}))[:2] == ["Berger, Anna", "Moser, Clara"]


def test_sorting_by_rating_starts_with_the_best(client, rated_club):
    for url in (reverse("ratings:list", args=[rated_club["list"].pk]),
                reverse("ratings:live", args=[rated_club["pool"].pk])):
        best_first = names(client.get(url, {"sort": "rating"}))
        assert best_first == ["Huber, Bernd", "Berger, Anna", "Moser, Clara", "Alt, Dora"]
        assert names(client.get(url, {"sort": "-rating"})) == best_first[::-1]


def test_live_ranks_stay_those_of_the_whole_list_when_filtered_or_sorted(client, rated_club):
    url = reverse("ratings:live", args=[rated_club["pool"].pk])
    assert [row[0] for row in table_rows(client.get(url, {"club": "SV Gäste"}))] == ["3"]
    by_name = table_rows(client.get(url, {"sort": "name"}))
    assert [(row[0], row[1]) for row in by_name] == [
        ("4", "Alt, Dora"), ("2", "Berger, Anna"), ("1", "Huber, Bernd"), ("3", "Moser, Clara")]


def test_pages_are_paginated_in_sql(client, rated_club):
    pool = rated_club["pool"]
    club = Club.objects.get(name="SV Gäste")
    members = [MemberFactory(club=club, last_name=f"Zeh{i:03d}") for i in range(130)]
    plist = list_publish(pool=pool, entries={m.pk: EntryData(rating=1000 + i) for i, m in enumerate(members)},
                         kind="start", valid_from=pool.start_date)
    url = reverse("ratings:list", args=[plist.pk])
    first = table_rows(client.get(url))
    assert len(first) == 100 and first[0][0] == "1" and first[0][1].startswith("Zeh129,")
    assert first[-1][0] == "100"
    second = table_rows(client.get(url, {"page": 2}))
    assert [row[0] for row in second] == [str(n) for n in range(101, 131)]
    assert second[-1][1].startswith("Zeh000,")


def test_a_later_page_of_a_list_sorted_by_name_has_its_rows_in_order(client, rated_club):
    pool = rated_club["pool"]
    members = [MemberFactory(club=None, last_name=f"Zeh{i:03d}") for i in range(130)]
    plist = list_publish(pool=pool, entries={m.pk: EntryData(rating=1000 + i) for i, m in enumerate(members)},
                         kind="start", valid_from=pool.start_date)
    rows = table_rows(client.get(reverse("ratings:list", args=[plist.pk]), {"sort": "-name", "page": 2}))
    assert [(row[0], row[1]) for row in rows[:2]] == [("101", "Zeh029, " + members[29].first_name),
                                                       ("102", "Zeh028, " + members[28].first_name)]
    assert len(rows) == 30 and rows[-1][1].startswith("Zeh000,")


def test_a_member_without_a_club_has_an_empty_club_cell(client, rated_club):
    clara = rated_club["clara"]
    clara.club = None
    clara.save()
    response = client.get(reverse("ratings:live", args=[rated_club["pool"].pk]))
    row = next(row for row in table_rows(response) if row[1] == "Moser, Clara")
    assert row[2:4] == ["", ""]  # title, club (the live list shows the member's club of today)


@pytest.mark.usefixtures("as_official")
def test_print_layout_has_the_header_and_no_navigation(client, rated_club):
    url = reverse("ratings:list_print", args=[rated_club["list"].pk])
    html = streamed(client.get(url, {"age": "U18"}))
    assert "navbar" not in html
    assert '<div class="print-club">Schachklub Donaustadt</div>' in html
    # The running header repeated on every printed page, and the page numbers.
    assert ('@top-left { content: "Schachklub Donaustadt · Wertungsliste: Standard\\a '
            'Regelwerk oesb-classic') in html
    assert ('· Periode 01.01.2026 – 30.06.2026 · Gültig ab 01.07.2026 · Gestrichen: Spieler, deren letzte '
            'gewertete Partie vor dem 01.07.2019 war (mehr als 7 Jahre, ÖSB TUWO § 27 d). · '
            'Altersklasse: U18"; }') in html
    assert 'content: "Seite" " " counter(page) " " "von" " " counter(pages)' in html
    assert "Berger, Anna" in html and "Huber, Bernd" not in html


def test_pdf_is_a_pdf(client, rated_club):
    response = client.get(reverse("ratings:list_pdf", args=[rated_club["list"].pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="Wertungsliste_Standard_2026-07-01.pdf"'
    assert response.content.startswith(b"%PDF-")
    live = client.get(reverse("ratings:live_pdf", args=[rated_club["pool"].pk]))
    assert live["Content-Type"] == "application/pdf" and live.content.startswith(b"%PDF-")


@pytest.mark.usefixtures("as_official")
def test_csv_export_in_both_languages(client, english, rated_club):
    url = reverse("ratings:list", args=[rated_club["list"].pk])
    german = client.get(url, {"_export": "csv", "active": "on"})
    assert german["Content-Type"].startswith("text/csv")
    assert german["Content-Disposition"] == 'attachment; filename="Wertungsliste_Standard_2026-07-01.csv"'
    content = b"".join(german.streaming_content)
    assert content.startswith("\ufeff".encode())  # Excel reads UTF-8 with its byte-order mark
    lines = content.decode("utf-8-sig").splitlines()
    assert lines[0] == ("Rang;Name;Titel;Verein;Geboren;Geschlecht;Wertung;Veränderung;Partien;"
                        "In der Periode;Kennzeichen;Klasse")
    assert lines[1] == "1;Huber, Bernd;;Schachklub Donaustadt;1955;m;1977;-3;51;1;;A"
    assert lines[2] == "2;Berger, Anna;;Schachklub Donaustadt;2010;w;1835;5;11;1;;A"
    assert len(lines) == 4  # header + the three active members
    english_response = english.get(url, {"_export": "csv"})
    assert english_response["Content-Disposition"] == (
        'attachment; filename="Rating_list_Standard_2026-07-01.csv"')
    english_lines = streamed(english_response).splitlines()
    assert english_lines[0] == "Rank,Name,Title,Club,Born,Sex,Rating,Change,Games,In period,Markers,Class"
    assert english_lines[2] == '2,"Berger, Anna",,Schachklub Donaustadt,2010,f,1835,5,11,1,,A'


@pytest.mark.usefixtures("as_official")
def test_csv_follows_the_sort_and_has_live_ranks(client, rated_club):
    url = reverse("ratings:live", args=[rated_club["pool"].pk])
    rows = list(csv.reader(io.StringIO(streamed(client.get(url, {"_export": "csv", "sort": "name"}))),
                           delimiter=";"))
    assert [(r[0], r[1], r[6], r[7], r[11]) for r in rows[1:]] == [
        ("4", "Alt, Dora", "1500", "", "C"), ("2", "Berger, Anna", "1843", "8", "A"),
        ("1", "Huber, Bernd", "1977", "", "A"), ("3", "Moser, Clara", "1691", "-9", "B"),
    ]


@pytest.mark.usefixtures("as_official")
def test_exports_neutralise_formulas(client, rated_club):
    Club.objects.filter(name="SV Gäste").update(name="=HYPERLINK(\"http://x\")")
    rated_club["clara"].refresh_from_db()
    url = reverse("ratings:list", args=[rated_club["list"].pk])
    rows = list(csv.reader(io.StringIO(streamed(client.get(url, {"_export": "csv"}))), delimiter=";"))
    clara = next(r for r in rows if r[1] == "Moser, Clara")
    assert clara[3] == "'=HYPERLINK(\"http://x\")"
    assert clara[6:8] == ["1700", "0"]  # numbers stay numbers
    response = client.get(url, {"_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content))).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert not [c for c in cells if c.data_type == "f"]
    # As in the CSV: the cell would become a formula as soon as somebody edited it.
    assert "'=HYPERLINK(\"http://x\")" in [c.value for c in cells]


@pytest.mark.usefixtures("as_official")
def test_xlsx_export(client, rated_club):
    response = client.get(reverse("ratings:live", args=[rated_club["pool"].pk]), {"_export": "xlsx"})
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    workbook = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert workbook.sheetnames == ["Wertungsliste"]
    rows = list(workbook.active.iter_rows(values_only=True))
    assert rows[0][:8] == (
        "Rang", "Name", "Titel", "Verein", "Geboren", "Geschlecht", "Wertung", "Veränderung")
    assert rows[2] == (2, "Berger, Anna", None, "Schachklub Donaustadt", 2010, "w", 1843, 8, 12, 1, None, "A")
    assert rows[1][7] is None  # not played in the period: no change


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
        with django_assert_max_num_queries(9):
            streamed(client.get(reverse("ratings:list_print", args=[target.pk])))
        with django_assert_max_num_queries(7):
            streamed(client.get(reverse("ratings:list", args=[target.pk]), {"_export": "csv"}))
    for params in ({}, {"sort": "name"}, {"club": "SV Gäste"}):
        with django_assert_max_num_queries(9):
            assert client.get(reverse("ratings:live", args=[pool.pk]), params).status_code == 200


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
    html = streamed(client.get(reverse("ratings:live_print", args=[rated_club["pool"].pk])))
    assert "<h1>Live-Wertungsliste: Standard</h1>" in html
    assert f"Stand {today:%d.%m.%Y} – vorläufig bis zum Abschluss der Periode" in html
    assert "Periode 01.07.2026 – 31.12.2026" in html


def test_pool_list_in_english(english, rated_club):
    html = english.get(reverse("ratings:pool_list")).content.decode()
    assert "List of 2026-07-01" in html and "open period 2026-07-01 – 2026-12-31" in html


def test_published_list_is_cached_by_validators(client, rated_club):
    plist = rated_club["list"]
    for name, params in (("ratings:list", {}), ("ratings:list", {"_export": "csv"}),
                         ("ratings:list_print", {}), ("ratings:list_pdf", {})):
        url = reverse(name, args=[plist.pk])
        first = client.get(url, params)
        assert first.status_code == 200
        assert first["Cache-Control"] == "private, no-cache"  # withdrawing it must reach the browser
        assert first["Last-Modified"]
        again = client.get(url, params, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304
        since = client.get(url, params, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
        assert since.status_code == 304
    # Another filter or language is another document.
    url = reverse("ratings:list", args=[plist.pk])
    etag = client.get(url)["ETag"]
    assert client.get(url, {"sex": "f"}, HTTP_IF_NONE_MATCH=etag).status_code == 200


@pytest.mark.usefixtures("as_official")
def test_a_new_result_changes_the_live_lists_etag(client, rated_club):
    url = reverse("ratings:live", args=[rated_club["pool"].pk])
    first = client.get(url)
    assert "no-cache" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    game = GameFactory(round=RoundFactory(tournament=rated_club["autumn"], number=2), board=1,
                       white=rated_club["bernd"], black=rated_club["dora"], result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.BLACK_WINS)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    row = next(r for r in table_rows(changed) if r[1] == "Huber, Bernd")
    assert row[7].startswith("−")  # the cached table was not reused


@pytest.mark.db_specific
def test_a_cached_list_page_offers_a_new_club_in_its_filter(client, rated_club, django_assert_num_queries):
    url = reverse("ratings:list", args=[rated_club["list"].pk])
    first = client.get(url).content.decode()
    # The own club, the list, the clubs of the filter and the latest change of a member and of a
    # club (one prepared statement on PostgreSQL): the content is the cached HTML.
    with django_assert_num_queries(4 if connection.vendor == "postgresql" else 5):
        assert client.get(url).content.decode().split("<main")[1] == first.split("<main")[1]
    Club.objects.create(name="SK Neudorf")
    response = client.get(url)
    assert '<option value="SK Neudorf">SK Neudorf</option>' in response.content.decode()
    assert names(response) == ["Huber, Bernd", "Berger, Anna", "Moser, Clara", "Alt, Dora"]


def test_home_top_list_is_cached_until_a_result_changes_it(client, rated_club, django_assert_max_num_queries):
    def top():
        html = client.get("/").content.decode()
        block = html[html.index('id="top-ratings"'):]
        row = r'<a href="/members/\d+/">([^<]*)</a></td>\s*<td class="num[^"]*">(\d+)</td>'
        return re.findall(row, block)

    assert top()[:2] == [("Huber, Bernd", "1977"), ("Berger, Anna", "1843")]
    with django_assert_max_num_queries(12):  # the top list comes from the cache now
        top()
    game = GameFactory(round=RoundFactory(tournament=rated_club["autumn"], number=2), board=1,
                       white=rated_club["anna"], black=rated_club["bernd"], result=Result.NOT_PLAYED)
    game_record_result(game=game, result=Result.WHITE_WINS)
    anna, bernd = dict(top())["Berger, Anna"], dict(top())["Huber, Bernd"]
    assert int(anna) > 1843 and int(bernd) < 1977


def test_the_inactivity_rule_is_in_the_headers_of_period_lists(client, english, rated_club):
    """ÖSB TUWO § 27 d: the page, the print layout and (through the same lines) the PDF say it."""
    plist, pool = rated_club["list"], rated_club["pool"]
    line = ("Gestrichen: Spieler, deren letzte gewertete Partie vor dem 01.07.2019 war "
            "(mehr als 7 Jahre, ÖSB TUWO § 27 d).")
    assert line in client.get(reverse("ratings:list", args=[plist.pk])).content.decode()
    assert line in streamed(client.get(reverse("ratings:list_print", args=[plist.pk])))
    html = english.get(reverse("ratings:list", args=[plist.pk])).content.decode()
    assert ("Left out: players whose last rated game was before 2019-07-01 (more than 7 years, "
            "ÖSB TUWO § 27 d).") in html
    live = client.get(reverse("ratings:live", args=[pool.pk])).content.decode()
    assert ("Die nächste Liste lässt Spieler ohne gewertete Partie seit mehr als 7 Jahren weg "
            "(ÖSB TUWO § 27 d).") in live
    # The starting list was not made by closing a period: the rule did not choose its players.
    start = client.get(reverse("ratings:list", args=[rated_club["start_list"].pk])).content.decode()
    assert "Gestrichen" not in start


def test_pdf_header_carries_the_inactivity_rule(client, rated_club, monkeypatch):
    from ratings.lists import faces as lists

    seen = {}
    real = lists.print_context

    def spy(**kwargs):
        seen.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(lists, "print_context", spy)
    response = client.get(reverse("ratings:list_pdf", args=[rated_club["list"].pk]))
    assert response.content.startswith(b"%PDF-")
    assert ("Gestrichen: Spieler, deren letzte gewertete Partie vor dem 01.07.2019 war "
            "(mehr als 7 Jahre, ÖSB TUWO § 27 d).") in seen["lines"]


def test_pools_without_the_rule_say_nothing(client, rated_club):
    pool = rated_club["pool"]
    pool.inactivity_years = None
    pool.save(update_fields=["inactivity_years"])
    urls = (reverse("ratings:list", args=[rated_club["list"].pk]), reverse("ratings:live", args=[pool.pk]))
    for url in urls:
        html = client.get(url).content.decode()
        assert "TUWO" not in html, url


def test_the_cached_filter_form_shows_each_visitors_own_choice(client, rated_club):
    url = reverse("ratings:list", args=[rated_club["list"].pk])
    chosen = '<option value="SV Gäste" selected>'
    assert chosen in client.get(url, {"club": "SV Gäste", "page": "1"}).content.decode()
    assert chosen not in client.get(url).content.decode()
    assert chosen in client.get(url, {"club": "SV Gäste", "sort": "name"}).content.decode()
    assert 'name="active" class="form-check-input" id="id_active" checked' in client.get(
        url, {"active": "on"}).content.decode()


def test_an_edited_member_shows_at_once_on_the_cached_pages(client, rated_club):
    pages = [reverse("ratings:list", args=[rated_club["list"].pk]),
             reverse("ratings:live", args=[rated_club["pool"].pk]), "/"]
    for url in pages:
        assert "Huber, Bernd" in client.get(url).content.decode()  # now cached
    etag = client.get(pages[0])["ETag"]
    bernd = rated_club["bernd"]
    bernd.last_name = "Huber-Leitner"
    bernd.save()
    for url in pages:
        html = client.get(url).content.decode()
        assert "Huber-Leitner, Bernd" in html and "Huber, Bernd" not in html, url
    assert client.get(pages[0], HTTP_IF_NONE_MATCH=etag).status_code == 200
    club = bernd.club
    club.name = "SK Umbenannt"
    club.save()
    row = next(r for r in table_rows(client.get(pages[1])) if r[1] == "Huber-Leitner, Bernd")
    assert "SK Umbenannt" in row


@pytest.mark.usefixtures("as_official")
def test_a_published_list_keeps_the_club_a_member_had_when_it_was_published(client, rated_club):
    """A published list is a snapshot: a member who changes club later stays under his old club
    there (page, club filter, export), while the live list shows the new one."""
    bernd = rated_club["bernd"]
    old_club = bernd.club.name
    bernd.club = Club.objects.create(name="SK Neuer Verein")
    bernd.save()
    published = reverse("ratings:list", args=[rated_club["list"].pk])
    live = reverse("ratings:live", args=[rated_club["pool"].pk])
    row = next(r for r in table_rows(client.get(published)) if r[1] == "Huber, Bernd")
    assert row[3] == old_club
    assert "Huber, Bernd" in names(client.get(published, {"club": old_club}))
    assert "Huber, Bernd" not in names(client.get(published, {"club": "SK Neuer Verein"}))
    lines = streamed(client.get(published, {"_export": "csv"})).splitlines()
    assert lines[1] == "1;Huber, Bernd;;Schachklub Donaustadt;1955;m;1977;-3;51;1;;A"
    row = next(r for r in table_rows(client.get(live)) if r[1] == "Huber, Bernd")
    assert row[3] == "SK Neuer Verein"
    assert "Huber, Bernd" in names(client.get(live, {"club": "SK Neuer Verein"}))
