"""The main pages run under the Content-Security-Policy without a single violation: no inline script,
style or event handler is blocked, and nothing is logged to the console (Debian's Chromium)."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests import crawl
from tests.factories import GameFactory, RoundFactory
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any script of each page: records what the policy blocks, and stands in for the
# print dialog, which a headless browser cannot show.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
window.__printed = 0;
window.print = function () { window.__printed += 1; };
"""


@pytest.fixture
def watched(page):
    """The page with its console messages and policy violations collected, and its requests counted
    (``settle`` waits until none is open)."""
    console = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    page.add_init_script(WATCH)
    page.console_messages = console
    network = {"open": 0}

    def count(change):
        def handler(_request):
            network["open"] += change
        return handler

    page.on("request", count(+1))
    page.on("requestfinished", count(-1))
    page.on("requestfailed", count(-1))
    page.network = network
    return page


def settle(page) -> None:
    """Wait for the load event, then until no request is open, as the crawl does (tests/crawl.py)."""
    crawl.settle(page, page.network)


def visit(page, url: str) -> list[str]:
    response = page.goto(url)
    assert response.status == 200, url
    assert "Content-Security-Policy" in {name.title() for name in response.headers}
    settle(page)
    return page.evaluate("window.__violations")


def test_main_pages_run_without_policy_violations(watched, live_server, login, rated_club,  # noqa: F811
                                                  shoot):
    page = watched
    autumn, anna = rated_club["autumn"], rated_club["anna"]
    open_round = RoundFactory(tournament=autumn, number=2)
    open_game = GameFactory(round=open_round, board=1, white=rated_club["bernd"], black=anna, result="")
    User.objects.create_superuser("chef", "chef@example.at", "chef-pw-2026")
    login(page, "chef", "chef-pw-2026")
    page.get_by_role("button", name="chef").click()  # the account menu
    assert page.get_by_role("link", name="Passwort ändern").is_visible()

    base = live_server.url
    urls = [
        "/", reverse("tournaments:list"), autumn.get_absolute_url(), open_round.get_absolute_url(),
        reverse("tournaments:standings", args=[autumn.pk]),
        reverse("tournaments:crosstable", args=[autumn.pk]),
        reverse("clubs:member_list"), anna.get_absolute_url(),
        reverse("ratings:pool_list"), reverse("ratings:list", args=[rated_club["list"].pk]),
        reverse("ratings:live", args=[rated_club["pool"].pk]),
        reverse("ratings:calculators"),
        reverse("ratings:calc_change"),
        reverse("ratings:calc_newcomer"), reverse("ratings:calc_forecast"),
        reverse("password_change"),
    ]
    violations = {url: visit(page, base + url) for url in urls}

    # Result entry: htmx loads without injecting its indicator style, and a board saves by keyboard.
    visit(page, base + reverse("tournaments:results", args=[autumn.pk, 2]))
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    page.keyboard.type("1")
    with page.expect_response(lambda r: r.request.method == "POST" and f"/results/{open_game.pk}/" in r.url):
        page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('#board-{open_game.pk}.board-saved') !== null")
    open_game.refresh_from_db()
    assert open_game.result == "1-0"
    violations["result entry"] = page.evaluate("window.__violations")

    # The print layout: its running-header style block is admitted by the nonce, its button prints.
    visit(page, base + reverse("ratings:list_print", args=[rated_club["list"].pk]))
    page.get_by_role("button", name="Drucken").click()
    assert page.evaluate("window.__printed") == 1
    violations["print"] = page.evaluate("window.__violations")

    # The language switcher submits itself on change (a script file, no onchange attribute).
    visit(page, base + "/")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
    page.get_by_role("button", name="chef").click()
    assert page.get_by_role("link", name="Change password").is_visible()
    violations["language"] = page.evaluate("window.__violations")

    shoot(page, "csp-home-english")
    assert {url: found for url, found in violations.items() if found} == {}
    assert page.console_messages == [], "\n".join(page.console_messages)


def test_member_page_chart_and_login_pages_run_without_policy_violations(watched, live_server, login,
                                                                         rated_club):  # noqa: F811
    page = watched
    anna = rated_club["anna"]
    anna.user = User.objects.create_user("anna", email="anna@example.at", password="anna-pw-2026")
    anna.save(update_fields=["user"])
    base = live_server.url
    found = [visit(page, base + url) for url in (
        reverse("login"), reverse("password_reset"), reverse("password_reset_done"),
    )]
    login(page, "anna", "anna-pw-2026")
    found.append(visit(page, base + anna.get_absolute_url()))
    assert page.locator("#rating-chart svg").is_visible()
    assert found == [[], [], [], []]
    assert page.console_messages == [], "\n".join(page.console_messages)
