"""Closing periods on the pages (normal and early), the close page's preview, and the lists in
force: the home page, the lists index, a withdrawn list's PDF and print-out, full names on the
PDF, the name search.

``rated_club`` (conftest): pool "Standard" from 1.1.2026, the period 1.1.–30.6.2026 closed into
the list valid from 1.7.2026; in the open period 1.7.–31.12.2026 Anna Berger beat Clara Moser on
1.9.2026.
"""

import ast
import datetime
import re
import subprocess
import threading
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Result
from ratings.models import ListEntry, PeriodState, PublishedList, RatingPeriod, RatingRecord
from ratings.services import game_record_result, period_close, period_reopen
from ratings.services.lists import EntryData, list_publish
from ratings.services.pools import open_period
from tests.factories import GameFactory, MemberFactory, RoundFactory, TournamentFactory
from tests.ratings.factories import make_pool, publish_start_list, set_today

pytestmark = [pytest.mark.django_db, pytest.mark.db_specific]

D = datetime.date
TODAY = D(2026, 11, 25)  # inside the open period 1.7.–31.12.2026


def _game(day, white, black, result=None, *, tournament=None, number=1):
    tournament = tournament or TournamentFactory(start_date=day)
    game = GameFactory(round=RoundFactory(tournament=tournament, number=number, date=day), board=1,
                       white=white, black=black, result=Result.NOT_PLAYED)
    if result:
        game_record_result(game=game, result=result)
    return game


def _published(plist):
    return [(e.rank, e.member_id, e.rating, e.change, e.games_count, e.period_games, e.class_code,
             e.start_value) for e in ListEntry.objects.filter(list=plist).order_by("rank")]


def _previewed(response):
    """The rows of the preview's page as shown (the rows read in SQL get their class per page)."""
    rows = [row.record for row in response.context["table"].page.object_list]
    return [(r.rank, r.member.pk, r.list_rating, r.list_change, r.list_games, r.list_period_games,
             r.list_class, r.list_markers.startswith("N")) for r in rows]


def _pdf_text(content: bytes, tmp_path: Path, *, mode: str = "-layout") -> str:
    pdf = tmp_path / "list.pdf"
    pdf.write_bytes(content)
    return subprocess.run(["pdftotext", mode, str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def _marked_pages(content: bytes, tmp_path: Path, mark: str) -> list[bool]:
    """Per page: whether ``mark`` is printed on it. The diagonal mark comes out of pdftotext's
    content-order mode ("-raw") a letter a line: the page's text is read without white space."""
    pages = _pdf_text(content, tmp_path, mode="-raw").split("\f")
    return [mark in "".join(page.split()) for page in pages if page.strip()]


# --- the close page's preview -----------------------------------------------------------------------


def test_the_preview_writes_and_locks_nothing_and_equals_what_closing_publishes(client, rated_club, officer,
                                                                               period_ended):
    client.force_login(officer)
    period = open_period(rated_club["pool"])
    newcomer = MemberFactory(last_name="Neu")
    for day in range(2, 9):  # seven games: a start value (§1.6)
        _game(D(2026, 10, day), newcomer, rated_club[("bernd", "clara")[day % 2]], Result.DRAW)
    url = reverse("ratings:period_close", args=[period.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    statements = [q["sql"].upper() for q in queries.captured_queries]
    assert not [s for s in statements if s.startswith(("INSERT", "UPDATE", "DELETE", "SAVEPOINT"))]
    assert not [s for s in statements if "FOR UPDATE" in s or "FOR SHARE" in s]
    previewed = _previewed(response)
    assert len(previewed) == 5
    client.post(url)
    assert previewed == _published(PublishedList.objects.filter(pool=rated_club["pool"]).latest("pk"))


def test_the_early_preview_equals_what_closing_early_publishes(client, rated_club, officer, monkeypatch):
    set_today(monkeypatch, TODAY)
    client.force_login(officer)
    # A result entered ahead of time for 10.12.: closing early leaves it to the next period.
    _game(D(2026, 12, 10), rated_club["bernd"], rated_club["clara"], Result.WHITE_WINS)
    url = reverse("ratings:period_close", args=[open_period(rated_club["pool"]).pk])
    previewed = _previewed(client.get(url))
    response = client.post(url, {"early": "on", "reason": "Saisonpause"})
    plist = PublishedList.objects.filter(pool=rated_club["pool"]).latest("pk")
    assert response["Location"] == reverse("ratings:list", args=[plist.pk])
    assert previewed == _published(plist)
    # Anna's win of 1.9. is on it; Bernd's of 10.12. is not.
    assert {e.member.first_name: (e.rating, e.change) for e in plist.entries.select_related("member")} == {
        "Anna": (1843, 8), "Bernd": (1977, 0), "Clara": (1691, -9), "Dora": (1500, 0)}


@pytest.mark.django_db(transaction=True)
def test_an_official_saves_a_result_while_the_officer_looks_at_the_preview(client, rated_club, officer,
                                                                        period_ended, monkeypatch):
    from ratings import close_preview

    client.force_login(officer)
    game = _game(D(2026, 9, 8), rated_club["bernd"], rated_club["dora"])
    outcome = {}
    real = close_preview.inactive_members

    def save_meanwhile(**kwargs):
        # The preview is under way (its list read): an official saves a result from another thread.
        def save():
            try:
                game_record_result(game=game, result=Result.WHITE_WINS)
                outcome["saved"] = True
            except Exception as error:  # reported to the test
                outcome["error"] = error
            finally:
                connection.close()

        thread = threading.Thread(target=save)
        thread.start()
        thread.join()
        return real(**kwargs)

    monkeypatch.setattr(close_preview, "inactive_members", save_meanwhile)
    response = client.get(reverse("ratings:period_close", args=[open_period(rated_club["pool"]).pk]))
    assert response.status_code == 200
    assert outcome == {"saved": True}
    assert RatingRecord.objects.filter(game=game).count() == 2


# --- the close page: normal and early ---------------------------------------------------------------


def test_closing_early_on_the_page_needs_the_choice_and_a_reason(client, rated_club, officer, monkeypatch):
    set_today(monkeypatch, TODAY)
    client.force_login(officer)
    pool = rated_club["pool"]
    swiss = TournamentFactory(name="Herbstopen", start_date=D(2026, 9, 4), end_date=D(2026, 12, 18))
    _game(D(2026, 12, 2), rated_club["anna"], rated_club["dora"], tournament=swiss, number=6)
    officer_page = client.get(reverse("ratings:officer")).content.decode()
    assert "Vorzeitig abschließen …" in officer_page
    assert "Abschließen und veröffentlichen …" not in officer_page
    url = reverse("ratings:period_close", args=[open_period(pool).pk])
    html = client.get(url).content.decode()
    assert ("Die Periode läuft bis 31.12.2026. Vorzeitiges Abschließen beendet sie heute, am 25.11.2026: "
            "Die neue Liste gilt ab 26.11.2026, und jede Partie nach dem 25.11.2026 gehört zur nächsten "
            "Periode (26.11.2026 – 31.12.2026).") in html
    moving = html[html.index('id="close-moving"'):html.index("</ul>", html.index('id="close-moving"'))]
    assert "Herbstopen" in moving and "Runde 6 (02.12.2026), 1 Partie" in moving
    assert "Vorzeitig abschließen und diese Liste veröffentlichen" in html

    html = client.post(url, {"reason": "Saisonpause"}).content.decode()
    assert "Die Periode ist noch nicht zu Ende: Wählen Sie „Vorzeitig abschließen“" in html
    html = client.post(url, {"early": "on", "reason": "  "}).content.decode()
    assert "Vorzeitiges Abschließen einer Periode braucht eine Begründung." in html
    assert open_period(pool).end == D(2026, 12, 31) and PublishedList.objects.filter(pool=pool).count() == 2

    response = client.post(url, {"early": "on", "reason": "Saisonpause über Weihnachten"})
    plist = PublishedList.objects.filter(pool=pool).latest("pk")
    assert (plist.valid_from, plist.early_reason, plist.period.end) == (
        D(2026, 11, 26), "Saisonpause über Weihnachten", TODAY)
    assert response["Location"] == reverse("ratings:list", args=[plist.pk])
    list_html = client.get(response["Location"]).content.decode()
    assert "Vorzeitig abgeschlossen am 25.11.2026: Saisonpause über Weihnachten" in list_html
    officer_page = client.get(reverse("ratings:officer")).content.decode()
    assert re.search(r"Vorzeitig abgeschlossen [0-9.]+ [0-9:]+ \(officer\): Saisonpause über Weihnachten",
                     officer_page)
    # The next period starts tomorrow: it cannot be closed yet; the page says so and offers nothing.
    following = open_period(pool)
    assert reverse("ratings:period_close", args=[following.pk]) not in officer_page
    assert ("Die Periode 26.11.2026 – 31.12.2026 hat noch nicht begonnen; sie kann nicht abgeschlossen "
            "werden.") in officer_page
    response = client.get(reverse("ratings:period_close", args=[following.pk]), follow=True)
    assert "hat noch nicht begonnen" in response.content.decode()


def test_the_early_close_page_in_english(english, rated_club, officer, monkeypatch):
    set_today(monkeypatch, TODAY)
    english.force_login(officer)
    url = reverse("ratings:period_close", args=[open_period(rated_club["pool"]).pk])
    html = english.get(url).content.decode()
    assert ("The period runs until 2026-12-31. Closing it early ends it today, 2026-11-25: the new list is "
            "valid from 2026-11-26") in html
    assert "No running tournament has rounds after 2026-11-25." in html
    assert "Close early and publish this list" in html


# --- the lists in force -----------------------------------------------------------------------------


def test_the_home_page_links_the_list_in_force_not_a_withdrawn_one(client, rated_club, period_ended):
    period_reopen(period=rated_club["list"].period, reason="Korrektur")
    html = client.get("/").content.decode()
    assert reverse("ratings:list", args=[rated_club["list"].pk]) not in html
    assert reverse("ratings:list", args=[rated_club["start_list"].pk]) in html
    assert "Veröffentlichte Liste vom 01.01.2026" in html


def test_a_list_valid_from_a_later_day_is_not_yet_in_force(client, rated_club, monkeypatch):
    set_today(monkeypatch, D(2026, 12, 31))  # the period's last day: it closes as usual
    plist = period_close(pool=rated_club["pool"])
    assert plist.valid_from == D(2027, 1, 1)
    html = client.get(reverse("ratings:pool_list")).content.decode()
    items = dict(re.findall(r"Liste vom ([0-9.]+)</a>(.*?)</li>", html, re.S))
    assert "gültig ab 01.01.2027" in items["01.01.2027"] and ">gültig<" not in items["01.01.2027"]
    assert ">gültig<" in items["01.07.2026"]
    assert reverse("ratings:list", args=[rated_club["list"].pk]) in client.get("/").content.decode()
    set_today(monkeypatch, D(2027, 1, 1))
    html = client.get(reverse("ratings:pool_list")).content.decode()
    items = dict(re.findall(r"Liste vom ([0-9.]+)</a>(.*?)</li>", html, re.S))
    assert ">gültig<" in items["01.01.2027"] and ">gültig<" not in items["01.07.2026"]


def test_a_withdrawn_list_stays_on_the_index_after_the_period_is_closed_again(client, english, rated_club,
                                                                              period_ended):
    old = rated_club["list"]
    period_reopen(period=old.period, reason="Korrektur")
    html = client.get(reverse("ratings:pool_list")).content.decode()
    assert "zurückgezogen (Periode wieder geöffnet)" in html
    RatingPeriod.objects.filter(pool=rated_club["pool"], state=PeriodState.WAITING).get()
    # (A correction that changes the list: a list the corrections leave as it was stands again.)
    game_record_result(game=rated_club["spring"].rounds.get().games.get(), result=Result.WHITE_WINS)
    new = period_close(pool=rated_club["pool"])
    assert new != old
    html = client.get(reverse("ratings:pool_list")).content.decode()
    item = html[html.index(reverse("ratings:list", args=[old.pk])):]
    item = item[:item.index("</li>")]
    assert "<del>Liste vom 01.07.2026</del>" in item
    assert "zurückgezogen (ersetzt durch die neu veröffentlichte Liste)" in item
    assert reverse("ratings:list", args=[new.pk]) in html
    page = english.get(reverse("ratings:list", args=[old.pk])).content.decode()
    assert ("Withdrawn: replaced by the list published when the period was closed again; this list is not "
            "valid.") in page


def test_a_withdrawn_lists_pdf_and_print_out_are_marked_on_every_page(client, english, tmp_path):
    pool = make_pool(start=D(2025, 1, 1))
    publish_start_list(pool, {MemberFactory(): 1200 + 5 * i for i in range(130)})
    plist = period_close(pool=pool)
    period_reopen(period=plist.period, reason="Korrektur")
    pdf = client.get(reverse("ratings:list_pdf", args=[plist.pk])).content
    assert _marked_pages(pdf, tmp_path, "ZURÜCKGEZOGEN") == [True, True, True]
    english_pdf = english.get(reverse("ratings:list_pdf", args=[plist.pk])).content
    assert _marked_pages(english_pdf, tmp_path, "WITHDRAWN") == [True, True, True]
    printed = b"".join(client.get(reverse("ratings:list_print", args=[plist.pk])).streaming_content).decode()
    assert '<div class="print-watermark" aria-hidden="true">ZURÜCKGEZOGEN</div>' in printed
    # A list in force carries no mark.
    valid = PublishedList.objects.get(pool=pool, kind="start")
    assert _marked_pages(client.get(reverse("ratings:list_pdf", args=[valid.pk])).content, tmp_path,
                         "ZURÜCKGEZOGEN") == [False, False, False]


def test_the_pdf_prints_full_names_and_clubs(client, tmp_path, official):
    client.force_login(official)  # every column, the birth year too: the narrowest name column
    club = Club.objects.create(name="Schachklub Donaustadt-Floridsdorf 1923")
    long_name = MemberFactory(last_name="Egger-Hochleitner", first_name="Maximilian Alexander", club=club,
                              fide_title="FM", birth_year=1987)
    other = MemberFactory(last_name="Berger", first_name="Anna", club=club, birth_year=2010)
    pool = make_pool(start=D(2025, 1, 1))
    list_publish(pool=pool, entries={long_name.pk: EntryData(rating=2105, previous=2099, games_count=210,
                                                             period_games=12, markers="N"),
                                     other.pk: EntryData(rating=1500, previous=1512, games_count=20,
                                                         period_games=3)},
                 kind="period", valid_from=D(2025, 1, 1))
    plist = PublishedList.objects.get(pool=pool)
    pdf = client.get(reverse("ratings:list_pdf", args=[plist.pk])).content
    text = _pdf_text(pdf, tmp_path)
    assert "…" not in text
    # Where the columns leave too little room, a long name or club wraps onto a second line of
    # its row (in content order: "-raw"); read as one line again, each is whole.
    cells = re.sub(r"-\s+", "-", " ".join(_pdf_text(pdf, tmp_path, mode="-raw").split()))
    assert "1 Egger-Hochleitner, Maximilian Alexander FM Schachklub Donaustadt-Floridsdorf 1923 1987" in cells
    assert "2 Berger, Anna Schachklub Donaustadt-Floridsdorf 1923 2010" in cells


# --- the name search --------------------------------------------------------------------------------


def test_the_name_search_keeps_the_other_filters_and_the_order_and_pages(client, rated_club, monkeypatch):
    from ratings.views import lists

    monkeypatch.setattr(lists, "PER_PAGE", 2)
    home, other = Club.objects.get(name="Schachklub Donaustadt"), rated_club["other_club"]
    entries = {}
    for index, (first, club) in enumerate([("Max", home), ("Moritz", home), ("Maria", home),
                                           ("Mia", other), ("Mathias", home)]):
        entries[MemberFactory(last_name="Huber", first_name=first, club=club).pk] = EntryData(
            rating=1400 + 10 * index)
    entries[MemberFactory(last_name="Egger", first_name="Max", club=home).pk] = EntryData(rating=1450)
    plist = list_publish(pool=make_pool(name="Suche", start=D(2025, 1, 1)), entries=entries, kind="start",
                         valid_from=D(2025, 1, 1))
    url = reverse("ratings:list", args=[plist.pk])
    query = {"name": "huber", "club": "Schachklub Donaustadt", "sort": "name"}

    def shown(**extra):
        html = client.get(url, {**query, **extra}).content.decode()
        return re.findall(r'<td class="col-primary name"><a href="[^"]*">([^<]*)</a></td>', html), html

    first, html = shown()
    assert first == ["Huber, Maria", "Huber, Mathias"]
    assert '<input type="hidden" name="sort" value="name">' in html  # the form keeps the order
    assert shown(page=2)[0] == ["Huber, Max", "Huber, Moritz"]
    assert shown(name="HUBER ma", page=1)[0] == ["Huber, Maria", "Huber, Mathias"]
    assert shown(name="huber ma", page=2)[0] == ["Huber, Max"]
    assert shown(name="max", sort="rating")[0] == ["Egger, Max", "Huber, Max"]
    assert shown(name="Gruber")[0] == []


def test_the_pdf_job_draws_from_the_list_module_not_through_the_view():
    source = Path(__file__).resolve().parents[3] / "ratings" / "views" / "pdf_jobs.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert "ratings.lists.faces" in imported
    assert not imported & {"django.test", "ratings.views.lists", "ratings.views"}
