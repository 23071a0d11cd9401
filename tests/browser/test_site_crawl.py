"""Every page reachable from the demo club, as visitor, member, official and rating officer, in German
and English, at 1366 px and on a phone (390 px), in Debian's Chromium; print pages and PDFs too.

The crawl starts at the home page and at the pages tests/browser/test_every_page.py lists (forms'
results, officer pages), follows every link of the site and visits each kind of page (its route,
and its tournament: a round robin and a Swiss differ) up to ``PER_ROUTE`` times. It fails on:

- HTTP 500 (and a broken link: 404 from a link of the site);
- template syntax on the page or in a PDF (``{#``, ``{%``, ``{{`` and their ends);
- a number with more than two decimals (outside the allowed columns, see ``MANY_DECIMALS_HEADS``);
- a grouped rating ("1.762", "1,762") in a rating column, on the rating chart's axis or in a PDF;
- at 390 px: a primary column (``col-primary``, clubrating/core/columns.py) off the screen or
  outside its scrolling frame, or a table without primary columns that does not fit its frame;
- at 1366 px: a navigation bar or the tournament tabs on more than one line;
- an English word on a German page or PDF (``ENGLISH``; ``ALLOWED`` are the words German shares).

One test per role and language (both widths in it), each with its own demo club: a parallel run
spreads them over the workers. A page that fails a check is screenshot into test-artifacts/.
"""

import re
import subprocess
import tempfile
from collections import defaultdict
from urllib.parse import urldefrag, urlsplit

import pytest
from django.conf import settings
from django.urls import Resolver404, resolve

from clubrating.site.demo import DEMO_POOL
from tests.browser.test_every_page import demo, pages  # noqa: F401 (the demo fixture and its pages)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROLES = {"visitor": None, "member": "member", "official": "official", "ratingofficer": "ratingofficer"}
PER_ROUTE = 1
# Member pages differ most (a newcomer, a player with a long history and its chart), and games (an
# open board, a rated one, one of a newcomer waiting for the period's end).
ROUTE_VISITS = {"members/<int:pk>/": 3, "tournaments/game/<int:pk>/": 8}
# Not pages of the site (or not for these roles): the admin, the language switch, static files.
SKIP_PREFIXES = ("/admin/", "/i18n/", "/static/", "/media/", "/accounts/logout/", "/favicon.ico")

TEMPLATE_SYNTAX = re.compile(r"\{[#%{]|[#%}]\}")
TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}", re.S)
# A decimal number with three or more decimals in the page's language ("1,738" in German, "1.738"
# in English); dates are removed first ("25.11.2026", "2026-11-25").
DATES = re.compile(r"\b\d{1,2}\.\d{1,2}\.\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b")
MANY_DECIMALS = {"de": re.compile(r"(?<![\d.,])\d+,\d{3,}"), "en": re.compile(r"(?<![\d.,])\d+\.\d{3,}")}
# The expected score of one game is published with three decimals (the ÖSB's and FIDE's tables),
# also where the calculator writes the arithmetic out.
MANY_DECIMALS_HEADS = r"^(E\(D\)|Expected|Erwartung|Arithmetic|Rechnung)$"
# Headings of rating columns (the national rating's column carries the pool's name).
RATING_HEADS = (rf"^({re.escape(DEMO_POOL)}|Ø|Rp|FIDE|Elo)$|rating|wertung(?!s?pool)|elo\b|"
                r"gegnerschnitt|average opponent|performance|turnierleistung")
GROUPED_RATING = re.compile(r"^[+−-]?\d{1,2}[.,]\d{3}\b")
GROUPED_IN_TEXT = re.compile(r"(?<![\d.,])[1-3][.,]\d{3}(?![\d.,])")

# Words of the English interface that must not stand on a German page (whole words, case as written).
ENGLISH = [
    "the", "and", "of", "with", "from", "for", "to", "is", "are", "not", "this", "that", "will", "be",
    "has", "have", "was", "were", "which", "when", "by", "or", "yes", "Yes", "No", "None", "new", "New",
    "Save", "Cancel", "Delete", "Edit", "Search", "Back", "Next", "Previous", "Page", "Print", "Download",
    "Upload", "Submit", "Close", "Open", "open", "Log in", "Log out", "Password", "Home", "Help",
    "Round", "Rounds", "Pairing", "Pairings", "Standings", "Results", "Result", "Crosstable",
    "Members", "Member", "Players", "Player", "Points", "Rating", "Ratings", "rating", "ratings",
    "Tournament", "Tournaments", "tournament", "Change", "Changes", "Games", "Game", "games", "Date",
    "Club", "Period", "period", "List", "list", "published", "Published", "valid", "pending",
    "provisional", "black", "white", "draw", "win", "loss", "rated", "unrated", "Overview",
    "Evaluation", "Expected", "Factor", "Rank", "Title", "Born", "Sex", "Active", "Total", "Average",
    "Withdrawn", "withdrawn", "Settings", "Players", "Opponent", "Score", "Calculators", "Import",
    "Export", "Rd.", "Pts.", "Rk.", "No.",
]
# English-looking words German uses too, or names (never flagged even if added above by mistake).
# "Rk." and "Rd." are the abbreviations of chess-results' German pages, which players know.
ALLOWED = {"Import", "Export", "Name", "Start", "Status", "Team", "Live", "Standard", "Elo", "FIDE", "PDF",
           "Rk.", "Rd.", "was", "will"}
ENGLISH_WORDS = re.compile(
    r"(?<![\w@./-])(" + "|".join(re.escape(w) for w in ENGLISH if w not in ALLOWED) + r")(?![\w@/-])")
# Addresses, paths and quoted identifiers (a file's column names: „rating“, „games“) are not words
# of the interface.
NOT_WORDS = re.compile(r"\S+@\S+|https?://\S+|/[\w/.-]+|„[\w.-]+“|“[\w.-]+”|\"[\w.-]+\"")

# What the browser reads of a page: its visible text (without code samples, user-entered names
# are part of the demo data and German anyway), and the cells of its tables by their headings.
READ = """([manyDecimalsHeads, ratingHeads]) => {
  const manyOk = new RegExp(manyDecimalsHeads, 'i'), ratingHead = new RegExp(ratingHeads, 'i');
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const out = {text: document.body.innerText, decimalText: '', ratingCells: [], chartTicks: []};
  // Visible text without the cells under headings that may carry three decimals.
  const skip = new Set();
  for (const table of document.querySelectorAll('table')) {
    const head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    if (!head) continue;
    const kinds = [], headings = [];
    for (const th of head.cells) {
      const text = th.innerText.trim();
      const kind = manyOk.test(text) ? 'many' : ratingHead.test(text) ? 'rating' : null;
      for (let i = 0; i < th.colSpan; i++) { kinds.push(kind); headings.push(text); }
    }
    for (const body of table.tBodies) for (const row of body.rows) {
      let col = 0;
      for (const td of row.cells) {
        const kind = kinds[col];
        if (kind === 'many') skip.add(td);
        if (kind === 'rating' && shown(td))
          out.ratingCells.push([headings[col], td.innerText.trim()]);
        col += td.colSpan;
      }
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const parts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('script, style, code, pre, kbd, samp, textarea') || !shown(el)) continue;
    const cell = el.closest('td, th');
    if (cell && skip.has(cell)) continue;
    parts.push(node.data);
  }
  out.decimalText = parts.join(' ');
  for (const t of document.querySelectorAll('.rating-chart-figure svg text'))
    out.chartTicks.push(t.textContent.trim());
  out.english = [...document.body.querySelectorAll('*')]
    .filter(el => !el.closest('script, style, code, pre, kbd, samp, textarea'))
    .flatMap(el => ['title', 'placeholder', 'aria-label', 'alt'].map(a => el.getAttribute(a)).filter(Boolean))
    .join(' \\n ');
  return out;
}"""

# At 390 px: every primary heading inside the window and inside each frame that scrolls it; a
# table without primary columns fits its frame.
PHONE = """() => {
  const problems = [];
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const label = (table) => (table.id ? '#' + table.id : '') + '.' + [...table.classList].join('.');
  for (const table of document.querySelectorAll('main table')) {
    if (!shown(table)) continue;
    const frames = [];
    for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
      const overflow = getComputedStyle(el).overflowX;
      if (overflow !== 'visible') frames.push(el);
    }
    const primary = [...table.querySelectorAll(':scope > thead th.col-primary')].filter(shown);
    if (!primary.length) {
      for (const frame of frames) if (table.scrollWidth > frame.clientWidth + 1)
        problems.push(`table ${label(table)} without primary columns is ${table.scrollWidth} px wide` +
                      ` in ${frame.clientWidth} px`);
      continue;
    }
    for (const th of primary) {
      const r = th.getBoundingClientRect();
      let right = window.innerWidth, left = 0;
      for (const frame of frames) {
        const f = frame.getBoundingClientRect();
        right = Math.min(right, f.left + frame.clientWidth); left = Math.max(left, f.left);
      }
      if (r.right > right + 1 || r.left < left - 1)
        problems.push(`primary column "${th.innerText.trim()}" of ${label(table)} at ` +
          `${Math.round(r.left)}–${Math.round(r.right)} px, visible ` +
          `${Math.round(left)}–${Math.round(right)} px`);
    }
  }
  return problems;
}"""

# At 1366 px: the bars' entries (main navigation, tournament tabs) on one line, each on one line.
WIDE = """() => {
  const problems = [];
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const bars = [['navigation', document.querySelector('nav.navbar')],
                ...[...document.querySelectorAll('ul.nav-tabs, ul.nav-pills')].map(ul => ['tabs', ul])];
  for (const [name, bar] of bars) {
    if (!bar || !shown(bar)) continue;
    const items = [...bar.querySelectorAll('.navbar-brand, .nav-link, form')]
      .filter(el => shown(el) && !el.closest('.dropdown-menu'));
    if (!items.length) continue;
    // Below the first line: starting lower than half the height of the lowest-starting entry's line.
    const first = Math.min(...items.map(el => el.getBoundingClientRect().top));
    const line = Math.min(...items.map(el => el.getBoundingClientRect().height));
    for (const el of items) {
      const r = el.getBoundingClientRect();
      if (r.top - first > line / 2) problems.push(`${name}: "${el.innerText.trim()}" on a second line`);
      const lines = el.getClientRects().length > 1 || (el.classList.contains('nav-link') &&
        r.height > 1.9 * parseFloat(getComputedStyle(el).lineHeight || '24'));
      if (lines) problems.push(`${name}: "${el.innerText.trim()}" wraps`);
    }
  }
  return problems;
}"""


def _route(path: str, query: str) -> tuple | None:
    """The kind of a page: its route, and its tournament where it has one."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    tournament = match.kwargs.get("pk") if match.route.startswith("tournaments/<int:pk>/") else None
    return (match.route, tournament, "pdf=1" in query)


def _around(text: str, match, width: int = 30) -> str:
    return repr(text[max(0, match.start() - width):match.end() + width])


# A problem is (check, detail); the report groups them by page and check.
def _text_problems(text: str, lang: str) -> list[tuple[str, str]]:
    problems = [("template syntax", _around(text, m)) for m in TEMPLATE_SYNTAX.finditer(text)]
    # A template comment on the page fails above; its words are not counted twice.
    plain = DATES.sub(" ", NOT_WORDS.sub(" ", TEMPLATE_COMMENT.sub(" ", text)))
    if lang == "de":
        problems += [(f"English word {m.group()!r}", _around(plain, m))
                     for m in ENGLISH_WORDS.finditer(plain)]
    return problems


# The ÖSB's transformation factor of 1.9.2024, written as the regulation writes it (docs/rules.md,
# "The 2024 transformation"): a constant of the rule, not a computed value.
REGULATION_FACTOR = re.compile(r"× 0[.,]333333\b")


def _decimals(text: str, lang: str) -> list[tuple[str, str]]:
    plain = DATES.sub(" ", REGULATION_FACTOR.sub(" ", text))
    return [("more than two decimals", _around(plain, m, 20)) for m in MANY_DECIMALS[lang].finditer(plain)]


def _pdf_problems(body: bytes, lang: str) -> list[tuple[str, str]]:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as pdf:
        pdf.write(body)
        pdf.flush()
        text = subprocess.run(["pdftotext", "-layout", pdf.name, "-"], capture_output=True, text=True,
                              check=True).stdout
    problems = _text_problems(text, lang) + _decimals(text, lang)
    undated = DATES.sub(" ", text)
    return problems + [("grouped rating (PDF)", _around(undated, m, 20))
                       for m in GROUPED_IN_TEXT.finditer(undated)]


def _page_problems(page, lang: str) -> list[tuple[str, str]]:
    seen = page.evaluate(READ, [MANY_DECIMALS_HEADS, RATING_HEADS])
    problems = _text_problems(seen["text"], lang)
    if lang == "de":
        attributes = NOT_WORDS.sub(" ", seen["english"])
        problems += [(f"English word {m.group()!r} in an attribute", _around(attributes, m))
                     for m in ENGLISH_WORDS.finditer(attributes)]
    problems += _decimals(seen["decimalText"], lang)
    problems += [(f"grouped rating under {head!r}", repr(text)) for head, text in seen["ratingCells"]
                 if GROUPED_RATING.search(text)]
    problems += [("grouped rating on the chart's axis", repr(t)) for t in seen["chartTicks"]
                 if GROUPED_RATING.search(t)]
    return problems


def _links(page, origin: str) -> list[str]:
    hrefs = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
    found = []
    for href in hrefs:
        url, _fragment = urldefrag(href)
        if url.startswith(origin) and not urlsplit(url).path.startswith(SKIP_PREFIXES):
            found.append(url)
    return found


def _is_download(route: str, url: str) -> bool:
    return route.endswith(("pdf/", "trf/", "csv/", "xlsx/")) or "export" in route or "pdf=1" in url


def crawl(context, origin: str, seeds: list[str], lang: str, shoot, name: str):
    """Visit the site at 1366 px from ``seeds`` on, following the links: (HTML pages, problems as
    (page, check, detail))."""
    page = context.new_page()
    problems, visited, html_pages = [], set(), []
    per_route = defaultdict(int)
    queue = [(url, None) for url in seeds]
    while queue:
        url, linked_from = queue.pop(0)
        if url in visited:
            continue
        visited.add(url)
        parts = urlsplit(url)
        route = _route(parts.path, parts.query)
        if route is None or per_route[route] >= ROUTE_VISITS.get(route[0], PER_ROUTE):
            continue
        per_route[route] += 1
        where = url[len(origin):]
        found = []
        if _is_download(route[0], url):
            response = context.request.get(url)
        else:
            try:
                response = page.goto(url)
            except Exception as error:  # a file download that its address does not announce
                if "Download is starting" not in str(error):
                    raise
                response = context.request.get(url)
            else:
                if response.status < 400 and "text/html" in response.headers.get("content-type", ""):
                    found = _page_problems(page, lang) + [("navigation", p) for p in page.evaluate(WIDE)]
                    html_pages.append(url)
                    queue += [(link, url) for link in _links(page, origin) if link not in visited]
                    if found:
                        shoot(page, f"crawl-{name}-{len(html_pages)}".replace(" ", "-"), failed=True)
        if response.status >= 500:
            found.append((f"HTTP {response.status}", ""))
        elif response.status == 404 and linked_from:
            found.append(("HTTP 404", f"linked from {linked_from[len(origin):]}"))
        elif response.headers.get("content-type", "").startswith("application/pdf"):
            found += _pdf_problems(response.body(), lang)
        problems += [(where, check, detail) for check, detail in found]
    page.close()
    return html_pages, problems


def phone(context, origin: str, urls: list[str], shoot, name: str):
    """The phone's checks on the pages the crawl found: problems as (page, check, detail)."""
    page = context.new_page()
    problems = []
    for number, url in enumerate(urls):
        page.goto(url)
        found = page.evaluate(PHONE)
        if found:
            shoot(page, f"crawl-{name}-{number}".replace(" ", "-"), failed=True)
        problems += [(url[len(origin):], "phone layout", p) for p in found]
    page.close()
    return problems


def summary(problems: list[tuple[str, str, str]]) -> list[str]:
    """One line per page and check: how often, and the first example."""
    grouped = defaultdict(list)
    for where, check, detail in problems:
        grouped[(where, check)].append(detail)
    return [f"{where}: {check}" + (f" ×{len(details)}" if len(details) > 1 else "") + f": {details[0]}"
            for (where, check), details in grouped.items()]


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
def test_every_reachable_page_as_each_role(browser, live_server, demo, shoot, role, lang,  # noqa: F811
                                           request):
    origin = live_server.url
    seeds = [origin + "/"] + [origin + path for _name, path in pages(demo)] + [origin + "/accounts/login/"]
    problems, html_pages = [], []
    for width in (1366, 390):
        context = browser.new_context(viewport={"width": width, "height": 900}, locale="en-US")
        if lang == "en":
            context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": origin}])
        if ROLES[role]:
            _log_in(context, origin, ROLES[role])
        name = f"{role}-{lang}-{width}"
        if width == 1366:
            html_pages, found = crawl(context, origin, seeds, lang, shoot, name)
        else:
            found = phone(context, origin, html_pages, shoot, name)
        problems += [(f"{where} [{width}]", check, detail) for where, check, detail in found]
        context.close()
    # Each page at both widths; the run's summary lists the counts (conftest.py).
    request.node.user_properties.append(("crawled_pages", len(html_pages)))
    assert len(html_pages) > 20, html_pages
    lines = summary(problems)
    assert lines == [], f"{role} {lang}: {len(lines)} problems on {len(html_pages)} pages:\n" + "\n".join(
        lines)


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
