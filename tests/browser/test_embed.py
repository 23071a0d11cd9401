"""A club's website shows the embed in an <iframe> and includes the API's HTML snippet (Chromium);
a site not listed in EMBED_ALLOWED_SITES cannot frame it; the API's documentation page runs under
the site's Content-Security-Policy."""

import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/api-shots")


@pytest.fixture
def website():
    """website(html) -> the address of a club's website (another origin than the site: its own
    server on this machine) serving ``html``."""
    servers = []

    def serve(html: str) -> str:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the standard library's name
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(html.encode())

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def club_page(live_server, embed_path: str, snippet_path: str) -> str:
    """A club's page: the embed in an iframe, and the snippet its server included."""
    snippet = urllib.request.urlopen(live_server.url + snippet_path).read().decode()  # noqa: S310 - test server
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>SK Donaustadt</title></head>
    <body style="font-family: serif; max-width: 60rem; margin: auto">
    <h1>Schachklub Donaustadt</h1>
    <h2>Unsere Wertungsliste (iframe)</h2>
    <iframe id="embed" src="{live_server.url}{embed_path}" title="Wertungsliste"
            style="width: 100%; height: 260px; border: 1px solid #ccc"></iframe>
    <h2>Dieselbe Liste als HTML-Baustein</h2>
    <section id="snippet">{snippet}</section>
    </body></html>"""


def test_the_top_list_inside_a_club_website(page, live_server, website, rated_club, home_club, settings):  # noqa: F811
    club_site = website(club_page(live_server, f"/embed/clubs/{home_club.pk}/top/",
                                  f"/api/v1/clubs/{home_club.pk}/top.html"))
    settings.EMBED_ALLOWED_SITES = [club_site]
    page.goto(club_site)
    frame = page.frame_locator("#embed")
    rows = frame.locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_have_text("2Berger, Anna1843+8")
    expect(frame.locator("h2")).to_have_text("Live-Wertungsliste: Schachklub Donaustadt")
    expect(page.locator("#snippet tbody tr")).to_have_count(3)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 800})
        expect(rows.nth(2)).to_be_visible()
        if SCREENSHOTS:
            SHOTS.mkdir(exist_ok=True)
            two_frames = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
            page.evaluate(two_frames)
            page.screenshot(path=str(SHOTS / f"club-website-{width}.png"), full_page=True)


def test_a_site_not_listed_cannot_frame_it(page, live_server, website, rated_club, home_club, settings):  # noqa: F811
    html = club_page(live_server, f"/embed/clubs/{home_club.pk}/top/",
                     f"/api/v1/clubs/{home_club.pk}/top.html")
    club_site, other_site = website(html), website(html)
    settings.EMBED_ALLOWED_SITES = [club_site]
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(other_site)
    page.wait_for_load_state("load")
    expect(page.locator("#snippet tbody tr")).to_have_count(3)  # what its server included is its own
    frame = page.frame_locator("#embed")
    expect(frame.locator("table")).to_have_count(0)
    assert any("frame-ancestors" in error for error in errors), errors


def test_api_documentation_runs_under_the_policy(page, live_server, rated_club):  # noqa: F811
    violations = []
    page.on("console", lambda message: violations.append(message.text) if message.type == "error" else None)
    page.goto(f"{live_server.url}/api/v1/docs")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/api/v1/pools/{pool_id}/live")).to_have_count(1)
    if SCREENSHOTS:
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "api-docs.png"), full_page=False)
    assert violations == []
