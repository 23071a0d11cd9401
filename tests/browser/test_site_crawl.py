"""Every page reachable from the demo club, as visitor, member, official, rating officer and the
club's administrator, in German and English, at 1366 px and on a phone (390 px), in Debian's
Chromium; print pages, PDFs and exports too, through the one crawl of the site (tests/crawl.py,
which lists the checks made on each visit: tests/crawl_checks.py).

The crawl starts at the home page and at the pages tests/browser/test_every_page.py lists (forms'
results, officer pages), follows every link of the site and visits each kind of page (its route,
its tournament: a round robin and a Swiss differ, and its other text arguments: a print layout's
kind) up to ``PER_ROUTE`` times (tests/crawl.py). The visitor also starts at the account pages; the
administrator's crawl also uploads a member file and checks the import's preview.

One test per role and language (both widths in it): a parallel run spreads them over the workers.
The crawls only read, so they share one demo club and live server per module and worker
(tests/crawl_server.py), and each proves that it wrote nothing. A page that fails a check is
screenshot into test-artifacts/.
"""

import re
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore

from clubrating.clubs.models import Club
from tests import crawl_checks
from tests.browser.test_every_page import MEMBERS_CSV, demo_objects, pages
from tests.crawl import WIDTHS, Visit, crawl
from tests.crawl_checks import GROUPED_RATING, _decimals, _text_problems
from tests.crawl_server import SharedSite, changes, fingerprint

pytestmark = [pytest.mark.browser]

ROLES = {"visitor": None, "member": "member", "official": "official", "ratingofficer": "ratingofficer",
         "admin": "admin"}
# What the administrator's crawl must reach (one page of each kind at least): tournaments, rounds,
# result entry, members, rating lists, calculators, print layouts, the password change.
ADMIN_SHAPES = {"/", "/tournaments/", "/tournaments/N/", "/tournaments/N/round/N/", "/members/",
                "/members/N/", "/ratings/", "/ratings/calculators/", "/accounts/password/change/"}
# The HTML pages each role's crawl reached on the demo club (the fewer of its two languages): a
# change that makes a crawl reach fewer fails here; raise a number when the site gains pages.
PAGES_AT_LEAST = {"visitor": 83, "member": 74, "official": 107, "ratingofficer": 88, "admin": 117}
ACCOUNT_PAGES = ["/accounts/login/", "/accounts/password/reset/", "/accounts/password/reset/done/"]


@pytest.fixture(scope="module")
def live_server(demo_snapshot, django_db_blocker):
    """The module's own live server with the demo club (tests/crawl_server.py). Named as
    pytest-django's, so that a run of these tests alone still sets the test database up (a test
    that uses ``live_server`` needs it); ``_live_server_helper`` below keeps the database as it is
    between the tests instead of emptying it after each."""
    with django_db_blocker.unblock():
        site = SharedSite(demo_snapshot, demo_objects)
    yield site
    with django_db_blocker.unblock():
        site.close()


@pytest.fixture(autouse=True)
def _live_server_helper():
    yield


@pytest.fixture
def site(live_server, django_db_blocker):
    """The module's demo club and live server, as the crawl left it checked (``unchanged``) by the
    test; whatever a test wrote is undone before the next one."""
    with django_db_blocker.unblock():
        yield live_server
        if live_server.unchanged():
            live_server.restore()


def _shape(url: str) -> str:
    return re.sub(r"\d+", "N", urlsplit(url).path)


def _log_in(context, origin: str, username: str) -> None:
    page = context.new_page()
    page.goto(f"{origin}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", username)  # the demo's passwords are the user names
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state()
    assert "/accounts/login/" not in page.url, f"{username} could not log in"
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("role", list(ROLES))
def test_every_reachable_page_as_each_role(crawl_browser, site, shoot, role, lang, request, tmp_path):
    origin = site.url
    named = pages(site.data)
    seeds = [origin + "/"] + [origin + path for _name, path in named] + [origin + "/accounts/login/"]
    if role == "visitor":
        seeds += [origin + path for path in ACCOUNT_PAGES]
    context = crawl_browser.new_context(viewport={"width": WIDTHS[0], "height": 900}, locale="en-US")
    if lang == "en":
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": origin}])
    if ROLES[role]:
        _log_in(context, origin, ROLES[role])
    result = crawl(context, origin, seeds, lang=lang, shoot=shoot, name=f"{role}-{lang}",
                   names={path: name for name, path in named})
    problems = result.problems
    # Logging in writes a session, the user's last login and the login's record; the crawl nothing.
    assert site.unchanged() == [], f"{role} {lang}: the crawl wrote"
    if role == "admin":
        problems += _import_preview(context, origin, lang, tmp_path)
    context.close()
    # Each page at both widths; the run's summary lists the counts (conftest.py).
    request.node.user_properties.append(("crawled_pages", len(result.pages)))
    request.node.user_properties.append(("crawled_files", len(result.files)))
    assert len(result.pages) >= PAGES_AT_LEAST[role], result.pages
    lines = crawl_checks.summary(problems)
    assert lines == [], f"{role} {lang}: {len(lines)} problems on {len(result.pages)} pages:\n" + "\n".join(
        lines)
    shapes = {_shape(url) for url in result.pages}
    if role == "admin":
        assert ADMIN_SHAPES <= shapes, ADMIN_SHAPES - shapes
        assert any(shape.endswith("/results/") for shape in shapes)
        assert any("print" in shape for shape in shapes)
    if role == "visitor":
        assert {origin + path for path in ACCOUNT_PAGES} <= set(result.pages)


def _import_preview(context, origin: str, lang: str, folder) -> list[tuple[str, str, str]]:
    """The member import's preview (what will be imported, before confirming) at both widths."""
    csv = folder / "mitglieder.csv"
    csv.write_text(MEMBERS_CSV, encoding="utf-8")
    page = context.new_page()
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{origin}/exchange/members/")
        page.set_input_files("input[type=file]", str(csv))
        page.locator("main form [type=submit]").last.click()
        page.wait_for_load_state("load")
        visit = Visit(page=page, where="import preview", lang=lang, width=width, name="import-preview")
        # The checks of every page, the phone's table layout included.
        problems += [("import preview", f"{check} [{width}]", detail)
                     for run in set(crawl_checks.PAGE_CHECKS) | set(crawl_checks.MARKUP_CHECKS)
                     for check, detail in run(visit)]
        summary = page.locator("#import-summary").inner_text()
        expected = "1 Mitglied wird angelegt" if lang == "de" else "1 member will be created"
        if not summary.startswith(expected):
            problems.append(("import preview", "summary", repr(summary)))
    page.close()
    return problems


# The checks themselves, on texts whose answer is known (no browser needed).
def test_the_text_checks_flag_what_they_should_and_not_dates_addresses_or_identifiers():
    assert _decimals("am 25.11.2026 um 01:40, 2026-11-25, Faktor 0,47, Rang 1.762", "de") == []
    assert _decimals("neu = alt + (2000 − alt) × 0,333333, gerundet", "de") == []
    assert [c for c, _ in _decimals("ÖSB Standard: 1,7378988610873098 / -0,38", "de")] == [
        "more than two decimals"]
    assert [c for c, _ in _decimals("Standard: 1.7378988610873098", "en")] == ["more than two decimals"]
    assert [bool(GROUPED_RATING.search(t)) for t in ("1.762", "1,762", "1762", "25.11.2026", "−1,5")] == [
        True, True, False, False, False]
    german = "Die Spalten „rating“ und „games“ · admin@example.at · Rk. Rd. 1 · Live-Wertung · the list"
    assert [c for c, _ in _text_problems(german, "de")] == ["English word 'the'", "English word 'list'"]
    assert _text_problems("the list", "en") == []
    comment = "{# The running header #}\nRangliste"
    assert [c for c, _ in _text_problems(comment, "de")] == ["template syntax", "template syntax"]


def test_the_markup_checks_flag_an_icon_from_elsewhere_but_not_the_sites(crawl_browser, site):
    page = crawl_browser.new_page()
    page.goto(site.url + "/")
    visit = Visit(page=page, where="/", lang="de", width=WIDTHS[0])
    assert crawl_checks.icon_checks(visit) == []
    page.evaluate("""() => {
      for (const href of ['https://evil.example/icon.ico', 'data:,', '/static/img/favicon.svg']) {
        const link = document.createElement('link');
        link.rel = 'shortcut icon'; link.href = href;
        document.head.append(link);
      }
    }""")
    visit = Visit(page=page, where="/", lang="de", width=WIDTHS[0])
    assert crawl_checks.icon_checks(visit) == [("icon from elsewhere", "https://evil.example/icon.ico")]
    page.close()


class _Response:
    """A file as the crawl's file checks see it (Playwright's APIResponse)."""

    def __init__(self, kind: str, body: bytes):
        self.headers, self._body = {"content-type": kind}, body

    def body(self) -> bytes:
        return self._body


def test_the_served_html_and_export_checks_flag_what_they_should():
    from tests.crawl_checks import export_checks, source_checks

    clean = '<p title="{a}">Rangliste</p><script src="/static/x.js"></script><style nonce="n">p {}</style>'
    assert source_checks(clean, "de") == []
    found = source_checks('<p style="x" onclick="go()">{{ name }}</p>{# The running header #}', "de")
    assert [check for check, _ in found] == ["inline code", "inline code", "template syntax (HTML)",
                                             "template syntax (HTML)", "template syntax (HTML)",
                                             "template syntax (HTML)", "template comment (HTML)"]
    csv = _Response("text/csv; charset=utf-8", b"Name;Verein\n=HYPERLINK(1);'+x\n")
    assert export_checks(csv, "de") == [("formula cell (CSV)", "'=HYPERLINK(1)'")]
    assert export_checks(_Response("text/csv", b"Name;Verein\nHuber;SK\n"), "de") == []


def test_the_shared_sites_guard_sees_a_write_but_not_a_login(db, django_user_model):
    user = django_user_model.objects.create_user("gast", password="gast")
    before = fingerprint()
    django_user_model.objects.filter(pk=user.pk).update(last_login="2026-11-29T08:00:00Z")
    SessionStore().create()
    assert changes(before, fingerprint()) == []
    Club.objects.create(name="Schachklub Neu")
    django_user_model.objects.filter(pk=user.pk).update(first_name="Gustav")
    assert changes(before, fingerprint()) == ["auth_user: +1 −1 rows", "clubs_club: +1 −0 rows"]
