"""Hostile names in every text field the site has, on every page, print layout, PDF and export, seen
by a visitor and by an officer in Debian's Chromium: none of it arrives as markup.

Every free-text ``CharField`` and ``TextField`` of the project's models (found by enumerating the
models, so a new field is covered without touching this test) and the users' names are set on every
row of the demo club (plus a team competition, a reopened period and a job, so that every model has
rows) to payloads that try to end a style block, open an element with an event handler, leave an
attribute or a text area, run a template tag or start a spreadsheet formula. The crawl starts from
the pages tests/browser/test_every_page.py visits and follows every link and GET form of the site
(forms filled with a payload too, for reflected input) up to a few addresses per URL name; it fails
unless every GET page of the URL configuration was reached. On each HTML page no element carries
the payloads' marker attribute, no ``meta http-equiv``, no ``img[src=x]``, no event-handler
attribute and no inline script exists; the browser never leaves the site. Each PDF's text holds the
home club's hostile name literally; no CSV cell starts a formula and no XLSX cell is one.
"""

import io
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import models, transaction
from django.urls import get_resolver, reverse

from clubrating.clubs.models import Club, Member
from clubrating.jobs.models import Job
from clubrating.national_list.services import national_list_import
from clubrating.tournaments.models import EntryWindow, Game, Notification, TournamentKind
from clubrating.tournaments.services import lineup_set, round_pair, team_create
from ratings.models import PeriodState, RatingPeriod
from ratings.services import period_close, period_reopen
from tests import crawl_checks
from tests.browser.test_content_security_policy import settle, watched  # noqa: F401
from tests.browser.test_every_page import demo_objects, pages
from tests.crawl import crawl as run_crawl
from tests.crawl import url_name
from tests.crawl_checks import INJECTED, MARK
from tests.demo_data import demo_restore, snapshot_read
from tests.factories import MemberFactory, TournamentFactory, TournamentPlayerFactory
from tests.paths import TRF_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Longest first: a field gets the longest payloads its length admits, in turn from row to row.
PAYLOADS = sorted([
    f"</style><meta http-equiv=refresh content=0;url=https://evil.example/ {MARK}>",
    f"</title></textarea><img src=x onerror=alert(1) {MARK}>",
    f'"><script {MARK}>alert(1)</script>',
    f"'><svg onload=alert(1) {MARK}>",
    '=HYPERLINK("https://evil.example";"x")',
    "{{ 7*7 }}{% now 'Y' %}",
    f"<b {MARK}>fett",
    "+cmd|' /C calc'!A0",
    f"<i {MARK}>",
], key=len, reverse=True)

# Text fields that hold codes the program reads back, not names a person typed: they keep the
# demo's values (a hostile value there is refused by the forms and readers that set them).
STRUCTURED = {
    "clubs.Member.federation": "FIDE federation code",
    "tournaments.Tournament.federation": "FIDE federation code",
    "tournaments.Tournament.tiebreaks": "tie-break codes, parsed for the standings",
    "jobs.Job.key": "the job's lock key",
    "jobs.Job.handler": "the dotted path of the function that runs the job",
    "jobs.Job.language": "a language code",
    "tournaments.Notification.language": "a language code",
    "jobs.Job.result_url": "an address of the site, set by the program",
    "jobs.Job.report_template": "a template name",
    "jobs.Job.output_type": "a MIME type",
    "ratings.ListEntry.markers": "markers computed by the rating engine",
    "ratings.ListEntry.class_code": "class codes computed by the rating engine",
    **{f"federation.{model}.{field}": "a code of FIDE's list, checked by its reader"
       for model in ("FideRating", "FidePlayer")
       for field in ("federation", "sex", "title", "women_title", "foa_title")},
    "leagues.LeagueSeason.standings_criteria": "standings criterion codes, parsed for the division table",
    "federation.FideUploadPart.token": "an upload's random key (hex digits), set by the program",
}
# Users' names as shown beside jobs, reopenings and result changes (the username stays: the
# crawl logs in with it, and Django's validator admits letters, digits and @.+-_ only).
USER_FIELDS = ("first_name", "last_name")


def text_fields() -> list[models.Field]:
    """The project's free-text fields: CharField and TextField (and their subclasses) without
    choices, not named in STRUCTURED."""
    fields = []
    for model in apps.get_models():
        if not model.__module__.startswith(("clubrating.", "ratings.")):
            continue
        for field in model._meta.get_fields():
            if (isinstance(field, (models.CharField, models.TextField)) and not field.auto_created
                    and not field.choices and f"{model._meta.label}.{field.name}" not in STRUCTURED):
                fields.append(field)
    return fields


def hostile_value(field: models.Field, row: int, pk) -> str:
    """A payload that fits the field, ending in the row's key (some fields are unique, some unique
    within a club or tournament)."""
    suffix = f" {pk}"
    room = (field.max_length or 10_000) - len(suffix)
    fitting = [p for p in PAYLOADS if len(p) <= room]
    assert fitting, f"{field.model._meta.label}.{field.name}: {field.max_length} characters admit no payload"
    return fitting[row % len(fitting)] + suffix


@transaction.atomic
def make_hostile() -> dict[str, int]:
    """Every free-text field of every row set to a payload; the number of rows per field. One
    transaction: a commit per update took about 15 s on PostgreSQL, one commit a fraction."""
    written = {}
    for field in text_fields():
        model = field.model
        label = f"{model._meta.label}.{field.name}"
        written[label] = 0
        for row, pk in enumerate(model.objects.order_by("pk").values_list("pk", flat=True)):
            model.objects.filter(pk=pk).update(**{field.attname: hostile_value(field, row, pk)})
            written[label] += 1
    for row, user in enumerate(User.objects.order_by("pk")):
        User.objects.filter(pk=user.pk).update(**{name: PAYLOADS[(row + i) % len(PAYLOADS)][:150]
                                                  for i, name in enumerate(USER_FIELDS)})
    return written


@pytest.fixture(scope="module")
def hostile_built() -> dict:
    """The rows of ``hostile`` as its first test in this process left them, and its objects."""
    return {}


@pytest.fixture
def hostile(db, demo_snapshot, hostile_built):
    """The demo club with a team competition, a reopened and closed-again period and a job, then
    every text field hostile. Built by the module's first test in a process (the services, the
    period's second close and an update of every row: about 1 s on SQLite, 8-15 s on PostgreSQL);
    each further test gets the same rows written back (tests/demo_data.py) and an empty cache (a
    new build would have moved every pool's cache version on)."""
    if hostile_built:
        demo_restore(hostile_built["rows"])
        cache.clear()
        return {key: type(value).objects.get(pk=value.pk) if isinstance(value, models.Model) else value
                for key, value in hostile_built["objects"].items()}
    demo_restore(demo_snapshot)
    demo = demo_objects()
    home = Club.objects.get(is_home=True)
    Club.objects.filter(pk=home.pk).update(public_ratings=True, public_tournaments=True)
    league = TournamentFactory(name="Vereinsliga", kind=TournamentKind.TEAM, rounds_count=3,
                               start_date=demo["open_period"].start)
    teams = []
    for number in range(1, 5):
        team = team_create(tournament=league, name=f"Team {number}", club=home)
        members = [MemberFactory(club=home) for _board in range(4)]
        for board, member in enumerate(members, start=1):
            TournamentPlayerFactory(tournament=league, member=member, team=team,
                                    start_rank=4 * number + board)
        teams.append((team, members))
    first = round_pair(tournament=league)
    for match in first.team_matches.all():
        for team, members in teams:
            if team.pk in (match.home_team_id, match.away_team_id):
                lineup_set(match=match, team=team, members=members)
    closed = RatingPeriod.objects.filter(pool=demo["pool"], state=PeriodState.CLOSED).order_by("start").last()
    period_reopen(period=closed, reason="Korrektur")
    period_close(pool=demo["pool"])
    # An e-mail waiting to be sent (the worker sends it; only the admin site shows it).
    Notification.objects.create(member=teams[0][1][0], email="spieler@example.at", language="de-at",
                                subject="Runde 1 ist ausgelost", body="Brett 1 mit Weiß")
    # A national list with three of the club's members (and a page to hand it to a pool).
    listed = list(Member.objects.filter(club=home).order_by("pk")[:3])
    for member in listed:
        Member.objects.filter(pk=member.pk).update(national_id=f"AT{member.pk}")
    rows = "".join(f"AT{m.pk};{1500 + n};{m.last_name};{home.name}\n" for n, m in enumerate(listed))
    national_list_import(text="id;rating;name;club\n" + rows, list_date=demo["open_period"].start,
                         columns={"national_id": "id", "rating": "rating", "name": "name", "club": "club"},
                         file_name="oesb.csv")
    written = make_hostile()
    empty = sorted(label for label, rows in written.items() if rows == 0)
    assert empty == [], f"no rows to carry a hostile value (add some to this fixture): {empty}"
    every_field = {f"{f.model._meta.label}.{f.name}" for m in apps.get_models() for f in m._meta.get_fields()}
    assert set(STRUCTURED) <= every_field, "a stale name in STRUCTURED"
    demo["home_club"] = Club.objects.get(pk=home.pk).name
    demo["league"] = league
    demo["job"] = Job.objects.get(pk=demo["job"].pk)
    hostile_built.update(rows=snapshot_read(), objects=dict(demo))
    return demo


LINKS = """() => {
  const urls = [...document.querySelectorAll('a[href]')].map(a => a.href);
  for (const element of document.querySelectorAll('[hx-get]'))
    urls.push(new URL(element.getAttribute('hx-get'), document.baseURI).href);
  for (const form of document.querySelectorAll('form')) {
    if ((form.getAttribute('method') || 'get').toLowerCase() !== 'get') continue;
    const query = new URLSearchParams();
    for (const field of form.elements) {
      if (!field.name || field.disabled) continue;
      const type = (field.type || '').toLowerCase();
      if (['submit', 'button', 'reset', 'file'].includes(type)) continue;
      if ((type === 'checkbox' || type === 'radio') && !field.checked) continue;
      const free = field.tagName === 'TEXTAREA'
        || ['text', 'search', ''].includes(type) && field.tagName === 'INPUT';
      query.append(field.name, free ? PAYLOAD : field.value);
    }
    const action = new URL(form.getAttribute('action') || document.location.href, document.baseURI);
    urls.push(action.href.split('?')[0] + '?' + query.toString());
  }
  return urls;
}""".replace("PAYLOAD", repr(PAYLOADS[1]))

# Addresses the crawl does not follow: they end the session or need a token from a mail.
SKIPPED = re.compile(r"^/(accounts/logout/|accounts/password/reset/[^/]+/[^/]+/|i18n/)")
PER_NAME = 2  # addresses per URL name, with and without a query each; the admin site's: one
# The admin site's pages of one object besides its change form list the same names again.
ADMIN_SKIPPED = re.compile(r"^/admin/.*/(history|delete)/$")
# Names of the URL configuration the crawl need not reach: POST-only actions, and pages that
# exist for one moment of a flow.
UNREACHED_ON_PURPOSE = {
    "password_reset_confirm": "needs the token of a mailed link",
    "password_reset_done": "shown after a reset mail was asked for (POST)",
    "password_reset_complete": "shown after a new password was set (POST)",
    "password_change_done": "shown after a password change (POST)",
    "logout": "POST only",
    "set_language": "POST only",
    "favicon": "an icon, not a page",
    "jobs:output": "a job's file; the demo's job has none",
    "jobs:restart": "POST only",
    "ratings:recalculate": "POST only",
    "tournaments:bye_request": "POST only",
    "leagues:match_results": "POST only",
    "leagues:lineup_check": "POST only (the lineup page's check while choosing)",
    "leagues:match_ineligible": "POST only",
    "leagues:match_confirm": "POST only",
    "leagues:match_dispute": "POST only",
    "leagues:match_decide": "POST only",
    "leagues:schedule_new": "linked from a season's setup for a division without schedule; the demo has none",
    "tournaments:game_correct": "POST only",
    "tournaments:pairing_swap": "POST only",
    "tournaments:player_withdraw": "POST only",
    "tournaments:round_date": "POST only",
    "tournaments:team_pair": "POST only",
    "tournaments:team_players": "POST only",
    "tournaments:entry_enter": "POST only",
    "tournaments:entry_cancel": "POST only",
    "tournaments:entry_decide": "POST only",
    "tournaments:own_check_in": "POST only",
    "tournaments:own_skip": "POST only",
    "tournaments:own_leave": "POST only",
    "clubs:member_privacy": "POST only",
    "clubs:member_notifications": "POST only",
    "clubs:member_merge": "needs a duplicate (linked from a member's edit page)",
    "national_list:apply": "POST only",
    "national_list:mapping": "a step of the national list's import: needs a file uploaded just before",
    "embed_club_top": "for other sites' iframes, linked from no page (tests/api/test_embeds.py)",
    "embed_standings": "for other sites' iframes, linked from no page (tests/api/test_embeds.py)",
    "federation:fide_player_add": "POST only",
    "federation:fide_player_follow": "POST only",
}


def page_names() -> set[str]:
    """The view names of the URL configuration (namespaced), except the admin site's and the API's."""
    names = set()

    def walk(resolver, namespace):
        for pattern in resolver.url_patterns:
            if hasattr(pattern, "url_patterns"):
                # The admin site; the API's JSON (tests/api: every endpoint, names escaped by JSON).
                if pattern.namespace in ("admin", "api-v1"):
                    continue
                walk(pattern, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace)
            elif pattern.name:
                names.add(f"{namespace}{pattern.name}")

    walk(get_resolver(), "")
    return names


def hostile_budget(path: str, query: str, part: str = "all"):
    """A kind of page is its URL name, by itself or with a query (a filter, a form's answer): up to
    ``PER_NAME`` addresses each, the admin site's one. ``part``: every page ("all"), the admin
    site's only ("admin") or every other ("site")."""
    if SKIPPED.match(path) or ADMIN_SKIPPED.match(path):
        return None
    name = url_name(path)
    if name is None or part != "all" and name.startswith("admin:") != (part == "admin"):
        return None
    return (name, bool(query)), 1 if name.startswith("admin:") else PER_NAME


FOLLOWED = crawl_checks.Reads(LINKS)
SHOWN = crawl_checks.Reads("() => document.body.innerText")


@crawl_checks.reads(FOLLOWED)
def hostile_links(visit) -> list[str]:
    return visit.read(FOLLOWED)


def club_in_pdf(club: str):
    """A PDF's text holds the club's hostile name literally."""

    def check(response, lang: str) -> list[tuple[str, str]]:
        if not response.headers.get("content-type", "").startswith("application/pdf"):
            return []
        from pypdf import PdfReader

        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
        # Twice: in the running header (a page margin) and in the title block. A long name may
        # wrap onto the next line beside the QR code, at a space or inside a word: white space
        # is left out of the comparison.
        found = "".join(text.split()).count("".join(club.split()))
        return [] if found >= 2 else [("the club's name in the PDF", f"{club!r} is there {found} times")]

    return check


def crawl(page, base: str, seeds: list[str], club: str, role: str, shoot,
          part: str = "all") -> tuple[set[str], list[str], int]:
    """Visit ``seeds`` and what they link to, the pages of ``part`` (``hostile_budget``); (the URL
    names reached, the problems, pages on which the payloads show as text)."""
    literal = []

    @crawl_checks.reads(SHOWN)
    def shown_as_text(visit) -> list:
        literal.append(MARK in visit.read(SHOWN))
        return []

    result = run_crawl(page.context, base, seeds, lang="de", shoot=shoot, name=f"hostile-{role}-{part}",
                       widths=(page.viewport_size["width"],), links=hostile_links,
                       budget=lambda path, query: hostile_budget(path, query, part),
                       page_checks=(crawl_checks.injected_checks, crawl_checks.icon_checks, shown_as_text),
                       markup_checks=(),
                       source_checks=(),
                       file_checks=(club_in_pdf(club), crawl_checks.export_checks),
                       # A payload names the file of a job that has none (Job.output_name): its
                       # link leads to a 404 that only these data make.
                       broken_links=False)
    problems = [f"{role} {line}" for line in result.summary()]
    return result.reached, problems, sum(literal)


def hostile_files(folder) -> list[tuple[str, object]]:
    """(import page, file): a member file and a TRF tournament (lines 012 and 022, a player's name)
    with hostile names, as officials and officers upload them."""
    members = folder / "mitglieder.csv"
    members.write_text(f"last_name;first_name;birth_date;club\n{PAYLOADS[1]};<b {MARK}>fett;03.04.2011;\n",
                       encoding="utf-8")
    lines = (TRF_DIR / "gros-2010-r4.trf").read_text(encoding="utf-8").splitlines()
    lines[0], lines[1] = f"012 {PAYLOADS[0]}", f"022 {PAYLOADS[1]}"
    player = next(i for i, line in enumerate(lines) if line.startswith("001    1 "))
    lines[player] = lines[player][:14] + f"<b {MARK}>x".ljust(33) + lines[player][47:]
    tournament = folder / "turnier.trf"
    tournament.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [("/exchange/members/", members), ("/exchange/pools/{pool}/trf/", tournament)]


# The pages only a visitor reaches (a logged-in user is sent on from them): the visitor's crawl must
# reach these, the officer's every other page of the URL configuration, so that the crawls run as
# three tests (in parallel on two workers) and still reach every page together. The officer's crawl
# is two: the admin site's pages, reached from its login page (the officer is sent on to its index),
# and every other page. Each part visits the pages of its kind that one crawl of both visited, in
# the same order: a kind's budget is spent on the addresses found first either way.
VISITOR_PAGES = {"login", "password_reset", "admin_password_reset"}
PARTS = {"visitor": ("visitor", "all"), "officer": ("officer", "site"), "officer-admin": ("officer", "admin")}
# Pages on which the payloads must show, as text: at least this many for each.
SHOWN_AT_LEAST = {"visitor": 10, "officer": 30, "officer-admin": 30}


@pytest.mark.slow
@pytest.mark.parametrize("crawled", list(PARTS))
def test_hostile_names_arrive_nowhere_as_markup(watched, live_server, login, hostile, tmp_path,  # noqa: F811
                                                shoot, crawled):
    role, part = PARTS[crawled]
    page = watched
    base = live_server.url
    seeds = [f"{base}{path}" for _name, path in pages(hostile)]
    league = hostile["league"].pk
    game = Game.objects.filter(round__tournament=hostile["round_robin"]).order_by("pk").last()
    seeds += [f"{base}/tournaments/{league}/", f"{base}/tournaments/{league}/teams/matches/",
              f"{base}/jobs/{hostile['job'].pk}/status/", f"{base}/admin/login/",
              base + reverse("tournaments:board_result", args=[game.round.tournament_id, game.round.number,
                                                                game.pk])]
    # The demo's tournament open for registration: its guests' form and the officials' check-in list.
    window = EntryWindow.objects.get(guests_may_enter=True, check_in=True)
    seeds += [base + reverse("tournaments:entry_guest", args=[window.tournament_id]),
              base + reverse("tournaments:check_in", args=[window.tournament_id])]
    if role == "officer":
        login(page, "admin", "admin")
    reached, problems, literal = crawl(page, base, [f"{base}/", *seeds], hostile["home_club"], role, shoot,
                                       part)
    if part == "site" and role == "officer":
        for path, upload in hostile_files(tmp_path):  # what a file brings, shown in the import's preview
            page.goto(base + path.format(pool=hostile["pool"].pk))
            page.set_input_files("main input[type=file]", str(upload))
            page.locator("main form [type=submit]").last.click()
            settle(page)
            where = f"officer {upload.name} preview"
            problems += [f"{where}: injected {html}" for html in page.evaluate(INJECTED)]
            if MARK not in page.evaluate("() => document.body.innerText"):
                problems.append(f"{where}: the names are not shown as text")
    assert problems == [], "\n".join(problems[:60])
    # The payloads were there to be seen, as text, on the pages.
    assert literal >= SHOWN_AT_LEAST[crawled], literal
    if role == "visitor":
        assert VISITOR_PAGES - reached == set(), f"the visitor reached no {VISITOR_PAGES - reached}"
    elif part == "admin":
        lists = {f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"
                 for model in admin.site._registry}
        assert lists - reached == set(), f"the admin site's lists not reached: {lists - reached}"
    else:
        missing = page_names() - reached - VISITOR_PAGES - set(UNREACHED_ON_PURPOSE)
        assert missing == set(), f"no link reached (link or name them in UNREACHED_ON_PURPOSE): {missing}"


def test_every_free_text_field_is_made_hostile_or_named_structured():
    """A new text field is hostile in the crawl unless it is listed as a code, with a reason."""
    labels = {f"{f.model._meta.label}.{f.name}" for f in text_fields()}
    assert {"clubs.Club.name", "clubs.Member.last_name", "tournaments.Tournament.place",
            "tournaments.Team.name", "ratings.RatingPool.name", "ratings.PeriodReopening.reason",
            "tournaments.ResultChange.reason", "jobs.Job.title", "clubs.Member.email"} <= labels
    assert not labels & set(STRUCTURED)
    assert Member._meta.get_field("last_name").max_length >= len(PAYLOADS[0])
