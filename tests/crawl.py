"""The one crawl of the site: every check a page must pass, made on each (role, language, width)
visit of it, in Debian's Chromium.

``crawl`` starts at its seeds (always visited), follows the links of each page up to a budget per
kind of page and, for every HTML page, loads it once and runs

- once per page: the status (HTTP 500; 404 from a link of the site; the browser leaving the site or
  a dialog opening), the served HTML (no inline script, style block without the response's nonce,
  style or event-handler attribute, ``javascript:`` address; no template syntax in its text, no
  "running header"), Content-Security-Policy violations and console errors;
- at each width (the page resized in place, see ``WIDTHS``; the checks' scripts in one call into
  the page per width): the visible text (template syntax, an
  English word on a German page or in its attributes, more than two decimals, a grouped rating in a
  rating column or on the chart's axis), the tables (grouped ratings, changes with a real minus
  and a sign, the columns a named page must show), no sideways scrolling, no element a payload
  would create (marker attribute, ``meta http-equiv``, ``img[src=x]``, ``base``, inline script,
  event-handler attribute); at 1366 px the navigation bars on one line, at 390 px the primary
  columns on the screen;

and for every PDF, CSV and XLSX: the PDF's text as a page's (plus no grouped rating), no CSV cell
starting a formula, no XLSX formula. A crawl of other data (tests/browser/test_hostile_names.py)
passes the checks that apply to it. The checks themselves are in tests/crawl_checks.py.
"""

import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit

from django.urls import Resolver404, resolve
from playwright.sync_api import Error as PlaywrightError

from tests import crawl_checks as checks

# Each page is loaded once, at the width the previous one ended with, and resized to the other: the
# styles follow at once, and the scripts that choose by width (folded sections, the result keys'
# legend) follow the resize too (static/js/site.js, result-entry.js; tests/test_suite.py keeps every
# such script doing so).
WIDTHS = (1366, 390)
HEIGHT = 900
# Not pages of the site (or not for these roles): the admin, the language switch, static files.
SKIP_PREFIXES = ("/admin/", "/i18n/", "/static/", "/media/", "/accounts/logout/", "/favicon.ico")
PER_ROUTE = 1
# Member pages differ most (a newcomer, a player with a long history and its chart), and games (an
# open board, a rated one, one of a newcomer waiting for the period's end).
ROUTE_VISITS = {"members/<int:pk>/": 3, "tournaments/game/<int:pk>/": 8}

# Records what the policy blocks, before any script of the page runs; stands in for the print
# dialog, which a headless browser cannot show.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
window.print = function () {};
"""


VIOLATIONS = checks.Reads("() => window.__violations || []")


@dataclass
class Visit:
    """One page at one width, as the checks see it."""

    page: object
    where: str
    lang: str
    width: int
    name: str | None = None  # the page's name in tests/browser/test_every_page.py's list
    seen: dict = field(default_factory=dict)  # the answers of the visit's scripts, by their source

    def read(self, script: checks.Reads):
        """What ``script`` answers on this visit: read with the visit's other scripts in one call
        (``checks.read_all``), or now if it was not."""
        if script.source not in self.seen:
            self.seen.update(checks.read_all(self.page, [script]))
        return self.seen[script.source]


@dataclass
class Result:
    pages: list[str] = field(default_factory=list)  # the HTML pages visited
    files: list[str] = field(default_factory=list)  # the PDFs and exports fetched
    reached: set = field(default_factory=set)  # URL names that answered 200 without a redirect
    problems: list = field(default_factory=list)  # (page [width], check, detail)

    def summary(self) -> list[str]:
        return checks.summary(self.problems)


def route_budget(path: str, query: str):
    """The site crawl's kind of a page: its route, its tournament where it has one, its other
    text arguments (a print layout's kind), and whether it is a PDF; (kind, visits) or None."""
    if path.startswith(SKIP_PREFIXES):
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return None
    tournament = match.kwargs.get("pk") if match.route.startswith("tournaments/<int:pk>/") else None
    words = tuple(sorted((k, v) for k, v in match.kwargs.items() if isinstance(v, str)))
    return (match.route, tournament, words, "pdf=1" in query), ROUTE_VISITS.get(match.route, PER_ROUTE)


def is_download(path: str, query: str) -> bool:
    try:
        route = resolve(path).route
    except Resolver404:
        return False
    return route.endswith(("pdf/", "trf/", "csv/", "xlsx/")) or "export" in route or "pdf=1" in query


def url_name(path: str) -> str | None:
    try:
        return resolve(path).view_name
    except Resolver404:
        return None


def watch(page) -> dict:
    """Count the page's open requests, collect its console errors; the policy's violations are
    recorded in the page (WATCH)."""
    state = {"open": 0, "console": []}

    def count(change):
        def handler(_request):
            state["open"] += change
        return handler

    page.on("request", count(+1))
    page.on("requestfinished", count(-1))
    page.on("requestfailed", count(-1))
    page.on("console", lambda m: m.type == "error" and state["console"].append(m.text))
    page.on("pageerror", lambda error: state["console"].append(f"pageerror: {error}"))
    page.add_init_script(WATCH)
    return state


def settle(page, state: dict) -> None:
    """After the load event, wait until no request is open (at most 30 s).

    Playwright reports a page's requests in the order the browser made them, so when ``goto``
    returns at the load event, every request started before it has been counted, the ones that an
    element asks for as it loads (htmx's ``hx-trigger=load``) too. The site's scripts start nothing
    later but their polls (htmx's ``every 5s``, the hall screen's timers), which no wait here would
    see either."""
    page.wait_for_load_state("load")
    deadline = time.monotonic() + 30
    while state["open"] > 0:
        assert time.monotonic() < deadline, f"requests still open: {state}"
        page.wait_for_timeout(20)  # lets Playwright deliver the request events


def crawl(context, origin: str, seeds: list[str], *, lang: str, shoot, name: str, **how) -> Result:
    """Visit ``seeds`` and what their pages link to, each kind of page as often as its budget admits
    (seeds always); ``how``: the attributes of ``Crawler``."""
    return Crawler(context, origin, lang=lang, shoot=shoot, name=name, **how).run(seeds)


@dataclass
class Crawler:
    context: object
    origin: str
    lang: str
    shoot: object
    name: str
    widths: tuple = WIDTHS
    budget: object = route_budget  # (path, query) -> (kind, visits), or None to leave the address
    links: object = checks.site_links  # Visit -> the addresses it leads to (at the first width)
    page_checks: tuple = checks.PAGE_CHECKS  # Visit -> [(check, detail)], at each width
    markup_checks: tuple = checks.MARKUP_CHECKS  # Visit -> [(check, detail)], at the first width
    source_checks: tuple = checks.SOURCE_CHECKS  # (served HTML, language) -> [(check, detail)]
    file_checks: tuple = checks.FILE_CHECKS  # (response, language) -> [(check, detail)]
    names: dict = field(default_factory=dict)  # address -> the page's name (its columns)
    broken_links: bool = True  # a 404 behind a link of the site is a problem

    def run(self, seeds: list[str]) -> Result:
        self.page = page = self.context.new_page()
        page.set_viewport_size({"width": self.widths[0], "height": HEIGHT})
        self.state = watch(page)
        self.result = result = Result()
        visited, spent, left_site = set(), Counter(), []
        origin = self.origin
        # Every request the pages make elsewhere is recorded (not intercepted: routing turns the
        # browser's cache off, and each page would fetch the site's styles and scripts again).
        elsewhere = re.compile(r"^(?!" + re.escape(origin) + r"/|data:|blob:)")

        def leaving(request):
            if elsewhere.match(request.url):
                left_site.append(request.url)

        self.context.on("request", leaving)
        page.on("dialog", lambda dialog: (result.problems.append((page.url, "a dialog", dialog.message)),
                                          dialog.dismiss()))
        queue = deque((urldefrag(url)[0], None, True) for url in seeds)
        while queue:
            url, linked_from, seed = queue.popleft()
            parts = urlsplit(url)
            if url in visited or not url.startswith(origin + "/"):
                continue
            kind = self.budget(parts.path, parts.query)
            if kind is None or (not seed and spent[kind[0]] >= kind[1]):
                continue
            visited.add(url)
            spent[kind[0]] += 1
            where = url[len(origin):]
            found, next_links = self.visit(url, where, linked_from)
            result.problems += [(where, check, detail) for check, detail in found]
            queue += [(urldefrag(link)[0], url, False) for link in next_links]
        result.problems += [("", "left the site", url) for url in left_site]
        self.context.remove_listener("request", leaving)
        page.close()
        return result

    def visit(self, url: str, where: str, linked_from: str | None):
        """One address: (problems, the addresses its page or redirect leads to)."""
        parts = urlsplit(url)
        if is_download(parts.path, parts.query):
            response = self.context.request.get(url, max_redirects=0)
        else:
            self.state["console"].clear()
            try:
                response = self.page.goto(url)
            except PlaywrightError as error:
                # A file its address does not announce, or an answer without a page (an htmx
                # fragment's "204 No Content" when nothing changed): read as a file.
                if "Download is starting" not in str(error) and "ERR_ABORTED" not in str(error):
                    return [("the page went away", str(error).splitlines()[0])], []
                response = self.context.request.get(url, max_redirects=0)
            else:
                return self.html(url, where, linked_from, response)
        found = _status(response, linked_from if self.broken_links else None)
        if response.status == 200:
            self.result.reached.add(url_name(parts.path))
            self.result.files.append(url)
            found += [p for check in self.file_checks for p in check(response, self.lang)]
        location = response.headers.get("location")
        return found, [_absolute(url, location)] if location else []

    def html(self, url: str, where: str, linked_from: str | None, response):
        page, result = self.page, self.result
        found = _status(response, linked_from if self.broken_links else None)
        if response.status >= 400 or "text/html" not in response.headers.get("content-type", ""):
            return found, []
        next_links = []
        try:
            settle(page, self.state)
            if not page.url.startswith(self.origin + "/"):  # a refresh that a payload made, say
                return found + [("the page went on", page.url)], []
            if response.status == 200 and response.request.redirected_from is None:
                result.reached.add(url_name(urlsplit(url).path))
            result.pages.append(url)
            source = response.text()
            found += [p for check in self.source_checks for p in check(source, self.lang)]
            # The page stays at the width the last one ended with and is resized to the other: one
            # resize per page (each costs the browser a layout).
            widths = self.widths if page.viewport_size["width"] == self.widths[0] else self.widths[::-1]
            for width in widths:
                if width != page.viewport_size["width"]:
                    page.set_viewport_size({"width": width, "height": HEIGHT})
                visit = Visit(page=page, where=where, lang=self.lang, width=width, name=self.names.get(where))
                first, last = width == widths[0], width == widths[-1]
                # Every script the checks read at this width, in one call into the page; what does
                # not depend on the width (the page's markup, its links) at the first; the policy's
                # violations at the last, after every resize.
                scripts = checks.scripts_of(self.page_checks, visit)
                if first:
                    scripts += checks.scripts_of((*self.markup_checks, self.links), visit)
                if last:
                    scripts.append(VIOLATIONS)
                visit.seen = checks.read_all(page, scripts)
                at_width = [(f"{check} [{width}]", detail) for run in self.page_checks
                            for check, detail in run(visit)]
                if at_width:
                    self.shoot(page, f"crawl-{self.name}-{len(result.pages)}-{width}".replace(" ", "-"),
                               failed=True)
                found += at_width
                if first:
                    next_links = self.links(visit)
                    found += [(check, detail) for run in self.markup_checks for check, detail in run(visit)]
                if last:
                    found += [("policy violation", v) for v in visit.read(VIOLATIONS)]
            found += [("console", message) for message in self.state["console"]]
        except PlaywrightError as error:  # e.g. a refresh that a payload made navigates away
            return found + [("the page went away", str(error).splitlines()[0])], next_links
        return found, next_links


def _absolute(url: str, location: str) -> str:
    parts = urlsplit(url)
    return location if "://" in location else f"{parts.scheme}://{parts.netloc}{location}"


def _status(response, linked_from) -> list[tuple[str, str]]:
    if response.status >= 500:
        return [(f"HTTP {response.status}", "")]
    if response.status == 404 and linked_from:
        return [("HTTP 404", f"linked from {urlsplit(linked_from).path}")]
    return []
