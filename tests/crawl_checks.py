"""The checks every page of the site must pass (tests/crawl.py makes them on each visit), and the
knowledge they need: English words, the headings of rating columns, the layout rules per width.

A check takes a ``Visit`` (the page at one width), the served HTML, or a file's response, and
returns its problems as (check, detail).
"""

import csv
import io
import re
import subprocess
import tempfile
import zipfile
from collections import defaultdict
from urllib.parse import urldefrag

from clubrating.site.demo import DEMO_POOL


class Reads:
    """A script a check runs in the page (a function's source) and its argument, ``when`` a visit
    needs it. The crawl runs all the scripts of one visit in one call (``read_all``), and a check
    takes its answer from ``visit.read``; a check called on its own runs its scripts itself."""

    def __init__(self, source: str, arg=None, when=None):
        self.source, self.arg, self.when = source, arg, when or (lambda visit: True)


def reads(*scripts: Reads):
    """Declare the scripts a check reads (see ``Reads``)."""

    def mark(check):
        check.scripts = scripts
        return check

    return mark


def read_all(page, scripts) -> dict:
    """The answers of ``scripts`` (``Reads``), by their source, from one call into the page."""
    scripts = list({script.source: script for script in scripts}.values())
    if not scripts:
        return {}
    calls = ", ".join(f"({script.source})(args[{i}])" for i, script in enumerate(scripts))
    call = f"(args) => [{calls}]"
    answers = page.evaluate(call, [script.arg for script in scripts])
    return {script.source: answer for script, answer in zip(scripts, answers)}


def scripts_of(checks, visit) -> list:
    """The scripts that ``checks`` read on ``visit``."""
    return [script for check in checks for script in getattr(check, "scripts", ()) if script.when(visit)]


# --- What a reader sees (text, numbers, words) ----------------------------------------------------
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
    if "running header" in text:
        problems.append(("template comment (PDF)", "running header"))
    undated = DATES.sub(" ", text)
    return problems + [("grouped rating (PDF)", _around(undated, m, 20))
                       for m in GROUPED_IN_TEXT.finditer(undated)]


SEEN = Reads(READ, [MANY_DECIMALS_HEADS, RATING_HEADS])


def _page_problems(seen: dict, lang: str) -> list[tuple[str, str]]:
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



@reads(SEEN)
def text_checks(visit) -> list[tuple[str, str]]:
    """What a reader sees: template syntax, English words on a German page and in its attributes,
    more than two decimals, grouped ratings in rating columns and on the chart's axis."""
    return _page_problems(visit.read(SEEN), visit.lang)


def _wide(visit) -> bool:
    return visit.width >= 1200


def _phone(visit) -> bool:
    return visit.width < 576


BARS = Reads(WIDE, when=_wide)
COLUMNS_ON_PHONE = Reads(PHONE, when=_phone)


@reads(BARS)
def navigation_checks(visit) -> list[tuple[str, str]]:
    """At 1366 px: the navigation bar and the tournament tabs on one line."""
    return [("navigation", p) for p in visit.read(BARS)] if _wide(visit) else []


@reads(COLUMNS_ON_PHONE)
def phone_checks(visit) -> list[tuple[str, str]]:
    """At 390 px: the primary columns on the screen, tables without them in their frames."""
    return [("phone layout", p) for p in visit.read(COLUMNS_ON_PHONE)] if _phone(visit) else []


# --- Fitting the screen, the columns a page shows, ratings and changes in tables ---------------------
# Headings a rating or a change column may carry, in either language.
CELL_RATING_HEADS = re.compile(
    rf"^(Rating|Wertung|Wertungszahl|Elo|FIDE|Live|{DEMO_POOL}|Published|Veröffentlicht|Ø|Rp)$", re.I)
CHANGE_HEADS = re.compile(r"^(Change|Änderung|Veränderung|\+/−|±|W−We)$", re.I)

# Every table of <main>: the texts of the cells under rating headings and under change headings
# (column positions from the header row; cells spanning several columns are counted by their span).
CELLS = """([ratingHeads, changeHeads]) => {
  const out = {ratings: [], changes: []};
  const rating = new RegExp(ratingHeads, 'i'), change = new RegExp(changeHeads, 'i');
  for (const table of document.querySelectorAll('main table')) {
    const head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    if (!head) continue;
    const kinds = [];
    for (const th of head.cells) {
      const text = th.innerText.trim();
      const kind = rating.test(text) ? 'ratings' : change.test(text) ? 'changes' : null;
      for (let i = 0; i < th.colSpan; i++) kinds.push(kind);
    }
    for (const body of table.tBodies) for (const row of body.rows) {
      let col = 0;
      for (const td of row.cells) {
        const kind = kinds[col];
        if (kind && td.offsetParent !== null) out[kind].push(td.innerText.trim());
        col += td.colSpan;
      }
    }
  }
  return out;
}"""
# The columns a named page's first table must show at 1366 px (chess-results' abbreviations; the
# national rating column is headed with the pool's name). Names: tests/browser/test_every_page.py.
HEADINGS = {
    ("list", "de"): ["Rang", "Name", "Verein", "Wertung", "Veränderung"],
    ("list", "en"): ["Rank", "Name", "Club", "Rating", "Change"],
    ("live", "de"): ["Rang", "Name", "Wertung", "Veränderung"],
    ("live", "en"): ["Rank", "Name", "Rating", "Change"],
    ("crosstable-rr", "de"): ["Rk.", "Name", DEMO_POOL, "FIDE", "Pkt."],
    ("crosstable-rr", "en"): ["Rk.", "Name", DEMO_POOL, "FIDE", "Pts."],
}
GROUPED = re.compile(r"\b\d[.,]\d{3}\b")  # "2.107" or "2,107": a rating split in groups
ASCII_MINUS = re.compile(r"(^|\s)-\s?\d")


# A print layout (templates/print/base_print.html) is a sheet of paper, wider than a phone.
OVERFLOW = Reads("() => document.body.classList.contains('print-page') ? 0"
                 " : document.scrollingElement.scrollWidth - window.innerWidth")
# The headings of the first table of <main>.
FIRST_HEADS = Reads("""() => {
  const table = document.querySelector('main table');
  return table ? [...table.querySelectorAll('thead th')].map(th => th.innerText) : [];
}""", when=lambda visit: _wide(visit) and (visit.name, visit.lang) in HEADINGS)
TABLE_CELLS = Reads(CELLS, [CELL_RATING_HEADS.pattern, CHANGE_HEADS.pattern])


@reads(OVERFLOW, FIRST_HEADS, TABLE_CELLS)
def table_checks(visit) -> list[tuple[str, str]]:
    """The page fits the screen (a print layout excepted); the columns of a named page; grouped
    ratings, ASCII minus, unsigned changes in tables."""
    problems = []
    overflow = visit.read(OVERFLOW)
    if overflow > 0:
        problems.append(("scrolls sideways", f"by {overflow} px"))
    if FIRST_HEADS.when(visit):
        heads = [h.strip() for h in visit.read(FIRST_HEADS)]
        problems += [("a column missing", f"{h!r} not in {heads}") for h in HEADINGS[(visit.name, visit.lang)]
                     if h not in heads]
    cells = visit.read(TABLE_CELLS)
    problems += [("grouped rating", repr(t)) for t in cells["ratings"] if GROUPED.search(t)]
    problems += [("ASCII minus", repr(t)) for t in cells["changes"] if ASCII_MINUS.search(t)]
    problems += [("unsigned change", repr(t)) for t in cells["changes"]
                 if t and t[0].isdigit() and t.strip("0,.")]
    return problems


# --- Markup that is not the site's: what a name would create if it arrived as markup ------------------
MARK = "data-pwned"
INJECTED = """() => {
  const found = [];
  const selector = '[MARK], meta[http-equiv], img[src="x"], base, '
    + 'script:not([src]):not([type="application/json"])';
  for (const element of document.querySelectorAll(selector)) found.push(element.outerHTML.slice(0, 160));
  for (const element of document.querySelectorAll('*'))
    for (const attribute of element.attributes)
      if (attribute.name.startsWith('on')) found.push(element.outerHTML.slice(0, 160));
  return found;
}""".replace("MARK", MARK)


MARKUP = Reads(INJECTED)


@reads(MARKUP)
def injected_checks(visit) -> list[tuple[str, str]]:
    return [("injected", html) for html in visit.read(MARKUP)]


# --- The served HTML: the Content-Security-Policy's rules, no template syntax --------------------------
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
STYLE_BLOCK = re.compile(r"<style(?![^>]*\bnonce=\"[^\"]+\")[^>]*>", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle=", re.I)
HANDLER_ATTRIBUTE = re.compile(r"<[a-z][^>]*\son[a-z]+=", re.I)
JAVASCRIPT_URL = re.compile(r"(href|src|action)=\"\s*javascript:", re.I)
SYNTAX = re.compile(r"\{#|\{%|\{\{|#\}|%\}|\}\}")


def inline_code(html: str) -> list[str]:
    """What the policy would block or a page would need 'unsafe-inline' for."""
    found = []
    for pattern in (INLINE_SCRIPT, STYLE_BLOCK, STYLE_ATTRIBUTE, HANDLER_ATTRIBUTE, JAVASCRIPT_URL):
        found += [match.group(0)[:120] for match in pattern.finditer(html)]
    return found


def visible(html: str) -> str:
    """The text a reader sees: no tags (attribute values cannot hold a template's syntax either)."""
    return re.sub(r"<[^>]*>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S))


def source_checks(html: str, lang: str) -> list[tuple[str, str]]:
    problems = [("inline code", found) for found in inline_code(html)]
    text = visible(html)
    problems += [("template syntax (HTML)", _around(text, m)) for m in SYNTAX.finditer(text)]
    if "running header" in html:
        problems.append(("template comment (HTML)", "running header"))
    return problems


# --- Files ----------------------------------------------------------------------------------------------
def pdf_checks(response, lang: str) -> list[tuple[str, str]]:
    if not response.headers.get("content-type", "").startswith("application/pdf"):
        return []
    return _pdf_problems(response.body(), lang)


def export_checks(response, lang: str) -> list[tuple[str, str]]:
    """No CSV cell starts a formula, no XLSX cell is one."""
    kind, body = response.headers.get("content-type", ""), response.body()
    if kind.startswith("text/csv"):
        rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";" if b";" in body else ","))
        return [("formula cell (CSV)", repr(cell)) for row in rows for cell in row
                if cell.startswith(("=", "+", "@"))]
    if "spreadsheetml" in kind:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            sheets = [archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/")]
        return [("formula (XLSX)", "") for sheet in sheets if "<f>" in sheet or "<f " in sheet]
    return []


# The page's icon comes from the site. The crawls' browser has no tab to show it in and fetches none,
# so an icon from elsewhere would not show as a request leaving the site: its address is read.
ICONS = Reads("""() => [...document.querySelectorAll('link[rel~="icon"]')].map(link => link.href)
  .filter(href => !/^(data|blob):/.test(href) && new URL(href).origin !== location.origin)""")


@reads(ICONS)
def icon_checks(visit) -> list[tuple[str, str]]:
    return [("icon from elsewhere", href) for href in visit.read(ICONS)]


PAGE_CHECKS = (text_checks, navigation_checks, phone_checks, table_checks)
MARKUP_CHECKS = (injected_checks, icon_checks)  # the elements a page has do not change with its width
SOURCE_CHECKS = (source_checks,)
FILE_CHECKS = (pdf_checks, export_checks)


LINKS = Reads("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")


@reads(LINKS)
def site_links(visit) -> list[str]:
    """The addresses a page links to."""
    return [urldefrag(href)[0] for href in visit.read(LINKS)]


def summary(problems: list[tuple[str, str, str]]) -> list[str]:
    """One line per page and check: how often, and the first example."""
    grouped = defaultdict(list)
    for where, check, detail in problems:
        grouped[(where, check)].append(detail)
    return [f"{where}: {check}" + (f" ×{len(details)}" if len(details) > 1 else "") + f": {details[0]}"
            for (where, check), details in grouped.items()]
