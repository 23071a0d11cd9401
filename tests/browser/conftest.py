"""Shared set-up of the Playwright browser tests (Debian's Chromium, never a downloaded one).

The pages run under a Content-Security-Policy without 'unsafe-eval': ``page.wait_for_function`` must
be given a function (``"() => ..."``), since a bare expression is polled through ``eval`` in the page,
which the policy refuses. ``page.evaluate`` may take either.
"""

import os
from pathlib import Path

import pytest
from django.conf import settings

# live_server runs in a thread while Playwright's sync API holds an event loop in this one;
# Django refuses ORM calls from an async context unless told this is safe (it is: tests only).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# Debian's build of Chromium without the browser's own window (chromium-headless-shell, the browser
# Playwright itself runs headless): the same Blink and V8 as Debian's ``chromium``, so the pages lay
# out and run as there, but nothing draws a tab strip, an address bar or a loading indicator beside
# them. That drawing was about half of the full browser's CPU time on a crawl, and about as much on
# the flows' pages (docs/benchmarks.md): every browser test runs in the shell.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


# Chromium gives every page a navigation opens a new frame in the renderer (its RenderDocument
# feature), with its own compositor: set up and torn down for each of the thousands of pages the
# tests load, about a fifth of the browser's CPU time per page (docs/benchmarks.md). One frame per
# tab, as before that feature, changes nothing a page or a check sees. Chromium reads one
# --disable-features, the last, so the list repeats what Playwright turns off itself
# (its chromiumSwitches); tests/browser/test_browser_args.py keeps the two in step.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
    "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
    "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
DISABLED_FEATURES = (*PLAYWRIGHT_DISABLED_FEATURES, "RenderDocument")
BROWSER_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-features=" + ",".join(DISABLED_FEATURES),
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    assert Path(HEADLESS_SHELL).exists(), "install chromium-headless-shell (scripts/setup.sh --dev)"
    return {**browser_type_launch_args, "executable_path": HEADLESS_SHELL, "args": BROWSER_ARGS}


@pytest.fixture(scope="session")
def crawl_browser(browser):
    """The browser of the crawls (tests/crawl.py): pytest-playwright's, Debian's headless shell."""
    return browser


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """An English browser (Accept-Language en-US): the pages must still speak German by default.

    The site ignores the browser's language; English comes only from the language switcher's cookie
    (``speak_english`` below, or by choosing it in the switcher).
    """
    return {**browser_context_args, "locale": "en-US"}


@pytest.fixture
def speak_english(context, live_server):
    """Choose English for the whole browser context, as the language switcher's cookie does."""
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}])


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# A full-page screenshot takes about as long as loading the page, so the default run writes one
# only for a page that fails a check (and pytest-playwright's --screenshot only-on-failure, set in
# pyproject.toml, keeps the last page of a failed test); CLUBRATING_SCREENSHOTS=1 writes every
# page's screenshot into test-artifacts/ for looking at them.
SCREENSHOTS = os.environ.get("CLUBRATING_SCREENSHOTS", "") == "1"


@pytest.fixture
def shoot(artifacts_dir):
    """shoot(page, name, failed=False, full_page=True): test-artifacts/<name>.png when screenshots
    are asked for or the page failed a check."""

    def take(page, name: str, *, failed: bool = False, full_page: bool = True) -> None:
        if SCREENSHOTS or failed:
            page.screenshot(path=str(artifacts_dir / f"{name}.png"), full_page=full_page)

    return take


@pytest.fixture
def login(live_server):
    """Log a page in through the real login form: login(page, username, password)."""

    def do_login(page, username: str, password: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", password)
        page.locator("form [type=submit]").last.click()
        page.wait_for_load_state()

    return do_login
