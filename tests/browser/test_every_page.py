"""Every public and official page of the demo club at 1366 px and on a phone (390 px), in German
and in English (Debian's Chromium).

Each page must fit the screen (document.scrollingElement.scrollWidth <= innerWidth). Where a page
has a table, the columns it must show are checked at 1366 px; in every table, the cells under a
rating heading hold no digit-grouped rating ("2.107") and the cells under a change heading carry a
sign with a real minus ("−14", never "-14"). A page that fails a check is screenshot into
test-artifacts/ (``page-<name>-<lang>-<width>.png``); CLUBRATING_SCREENSHOTS=1 screenshots every
page. One test per language, each with its own demo club (both widths reuse
it): the two run side by side in a parallel run.
The tournament tabs, result entry, pairing and registration are visited the same way by
tests/browser/test_tournament_pages.py.
"""

import re

import pytest
from django.conf import settings

from clubrating.jobs.models import Job, JobState
from clubrating.leagues.models import LeagueMatch, LeagueSeason, MatchStatus
from clubrating.site.demo import DEMO_POOL, ROUND_ROBIN_NAME, SWISS_NAME
from clubrating.tournaments.models import Game, Tournament
from ratings.models import PeriodState, PublishedList, RatingPeriod, RatingPool
from tests.demo_data import demo_restore

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [1366, 390]
# A calculation on the rating-change calculator: 1830 against 1980 (a draw) and 1750 (a loss).
CALCULATION = ("rules=oesb-classic&rating=1830&games_count=10&g-TOTAL_FORMS=10&g-INITIAL_FORMS=0"
               "&g-MIN_NUM_FORMS=0&g-MAX_NUM_FORMS=60&g-0-opponent=1980&g-0-result=0.5"
               "&g-1-opponent=1750&g-1-result=0")
MEMBERS_CSV = "last_name;first_name;birth_date;club\nNeumann;Lea;03.04.2011;Schachklub Donaustadt\n"

# Headings a rating or a change column may carry, in either language.
RATING_HEADS = re.compile(
    rf"^(Rating|Wertung|Wertungszahl|Elo|FIDE|Live|{DEMO_POOL}|Published|Veröffentlicht|Ø|Rp)$", re.I)
CHANGE_HEADS = re.compile(r"^(Change|Änderung|Veränderung|\+/−|±|W−We)$", re.I)

# The JavaScript that reads every table of <main>: the texts of the cells under rating headings
# and under change headings (column positions from the header row; cells spanning several
# columns are counted by their span).
CELLS = """() => {
  const out = {ratings: [], changes: []};
  const rating = new RegExp(%s, 'i'), change = new RegExp(%s, 'i');
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


@pytest.fixture
def demo(db, demo_snapshot):
    demo_restore(demo_snapshot)
    pool = RatingPool.objects.get(name=DEMO_POOL)
    job = Job.objects.create(key="members-import", title="Mitgliederimport: mitglieder.csv",
                             handler="clubrating.interchange.jobs.members_import_run", state=JobState.DONE,
                             progress=100, message="3 Mitglieder angelegt, 0 aktualisiert.")
    return {
        "pool": pool,
        "list": PublishedList.objects.filter(pool=pool, superseded=False).order_by("-valid_from").first(),
        "open_period": RatingPeriod.objects.get(pool=pool, state=PeriodState.OPEN),
        "round_robin": Tournament.objects.get(name=ROUND_ROBIN_NAME),
        "member": Game.objects.filter(round__tournament__name=SWISS_NAME).first().white,
        "job": job,
        "season": LeagueSeason.objects.get(),
        "decided": LeagueMatch.objects.get(status=MatchStatus.DECIDED),
        "lined_up": LeagueMatch.objects.filter(match__round__number=5).order_by("pk").first(),
        "home_team": LeagueMatch.objects.filter(match__round__number=5).order_by("pk").first()
        .match.home_team.league_team.pk,
    }


def pages(demo) -> list[tuple[str, str]]:
    """The pages besides the tournament tabs, which tests/browser/test_tournament_pages.py visits at
    both widths and in both languages with a tournament of its own (the round robin's crosstable
    is here, as the one tab layout that tournament lacks)."""
    pool = demo["pool"].pk
    return [
        ("home", "/"),
        ("pools", "/ratings/"),
        ("list", f"/ratings/lists/{demo['list'].pk}/"),
        ("live", f"/ratings/pools/{pool}/live/"),
        ("members", "/members/"),
        ("member", demo["member"].get_absolute_url()),
        ("tournaments", "/tournaments/"),
        ("crosstable-rr", f"/tournaments/{demo['round_robin'].pk}/crosstable/"),
        ("create", "/tournaments/new/"),
        ("officer", "/ratings/officer/"),
        ("close", f"/ratings/officer/periods/{demo['open_period'].pk}/close/"),
        ("import-list", f"/ratings/officer/pools/{pool}/import/"),
        ("import-trf", f"/exchange/pools/{pool}/trf/"),
        ("import-members", "/exchange/members/"),
        ("import-pgn", "/exchange/pgn/"),
        ("job", f"/jobs/{demo['job'].pk}/"),
        ("calculators", "/ratings/calculators/"),
        ("calc-change", f"/ratings/calculators/rating-change/?{CALCULATION}"),
        ("calc-forecast", "/ratings/calculators/team-forecast/"),
        ("calc-newcomer", "/ratings/calculators/newcomer/"),
        ("league-captain", "/leagues/captain/"),
        ("league-director", f"/leagues/season/{demo['season'].pk}/director/"),
        ("league-decided", f"/leagues/match/{demo['decided'].pk}/"),
        ("league-lined-up", f"/leagues/match/{demo['lined_up'].pk}/"),
        ("league-roster", f"/leagues/season/{demo['season'].pk}/roster/{demo['season'].organizer_club_id}/"),
        ("league-lineup", f"/leagues/match/{demo['lined_up'].pk}/lineup/{demo['home_team']}/"),
    ]


# The columns each page's first table must show at 1366 px (chess-results' abbreviations; the
# national rating column is headed with the pool's name).
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


def _check(page, name: str, lang: str, width: int) -> list[str]:
    problems = []
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        problems.append(f"{name} {lang} {width}: scrolls sideways by {overflow} px")
    if width == 1366 and (name, lang) in HEADINGS:
        heads = [h.strip() for h in page.locator("main table").first.locator("thead th").all_inner_texts()]
        problems += [f"{name} {lang}: no column {h!r} in {heads}"
                     for h in HEADINGS[(name, lang)] if h not in heads]
    cells = page.evaluate(CELLS % (repr(RATING_HEADS.pattern), repr(CHANGE_HEADS.pattern)))
    where = f"{name} {lang} {width}"
    problems += [f"{where}: grouped rating {t!r}" for t in cells["ratings"] if GROUPED.search(t)]
    problems += [f"{where}: ASCII minus in {t!r}" for t in cells["changes"] if ASCII_MINUS.search(t)]
    problems += [f"{where}: unsigned change {t!r}" for t in cells["changes"]
                 if t and t[0].isdigit() and t.strip("0,.")]
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_fits_both_widths_with_its_columns_and_number_formats(
        page, context, live_server, login, demo, shoot, tmp_path, lang):
    csv = tmp_path / "mitglieder.csv"
    csv.write_text(MEMBERS_CSV, encoding="utf-8")
    problems = []
    if lang == "en":
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en",
                              "url": live_server.url}])
    for width in WIDTHS:  # the login page, seen by a visitor
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/accounts/login/")
        found = _check(page, "login", lang, width)
        shoot(page, f"page-login-{lang}-{width}", failed=bool(found))
        problems += found
    login(page, "admin", "admin")  # the demo's administrator: official and rating officer
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, path in pages(demo):
            page.goto(f"{live_server.url}{path}")
            found = _check(page, name, lang, width)
            shoot(page, f"page-{name}-{lang}-{width}", failed=bool(found))
            problems += found
        # The member import's preview: what will be imported, before confirming.
        page.goto(f"{live_server.url}/exchange/members/")
        page.set_input_files("input[type=file]", str(csv))
        page.locator("main form [type=submit]").last.click()
        page.wait_for_load_state("load")
        found = _check(page, "import-preview", lang, width)
        shoot(page, f"page-import-preview-{lang}-{width}", failed=bool(found))
        problems += found
        summary = page.locator("#import-summary").inner_text()
        expected = "1 Mitglied wird angelegt" if lang == "de" else "1 member will be created"
        if not summary.startswith(expected):
            problems.append(f"import preview {lang}: {summary!r}")
    assert problems == [], "\n".join(problems)
