"""The Content-Security-Policy admits only the application's own scripts, styles and images, and no
page relies on an inline script, an event-handler attribute or a style attribute."""

import re
from urllib.parse import urljoin, urlparse

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubrating.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}


def policy(response) -> dict[str, str]:
    """The directives of the response's Content-Security-Policy (their order carries no meaning)."""
    directives = [part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")]
    return {name: value for name, value in directives}

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
STYLE_BLOCK = re.compile(r"<style(?![^>]*\bnonce=\"[^\"]+\")[^>]*>", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle=", re.I)
HANDLER_ATTRIBUTE = re.compile(r"<[a-z][^>]*\son[a-z]+=", re.I)
JAVASCRIPT_URL = re.compile(r"(href|src|action)=\"\s*javascript:", re.I)


def inline_code(html: str) -> list[str]:
    found = []
    for pattern in (INLINE_SCRIPT, STYLE_BLOCK, STYLE_ATTRIBUTE, HANDLER_ATTRIBUTE, JAVASCRIPT_URL):
        found += [match.group(0)[:120] for match in pattern.finditer(html)]
    return found


def test_inline_code_detector():
    assert inline_code('<p style="color: red">') == ['<p style=']
    assert inline_code('<select onchange="go()">') == ['<select onchange=']
    assert inline_code("<script>alert(1)</script>") == ["<script>"]
    assert inline_code("<style>p {}</style>") == ["<style>"]
    assert inline_code('<a href="javascript:go()">') == ['href="javascript:']
    assert inline_code('<script src="/static/x.js"></script><style nonce="abc">p {}</style>') == []


def test_policy_header_on_every_page(client):
    assert policy(client.get(reverse("login"))) == POLICY
    assert policy(client.get("/")) == POLICY


def test_policy_header_on_the_admin_login(client):
    assert policy(client.get("/admin/login/")) == POLICY


@pytest.fixture
def demo(demo_club, db):
    """The demo club, seeded once for the module (see tests/conftest.py)."""


def test_print_page_style_block_carries_the_responses_nonce(client, demo):
    tournament = Tournament.objects.get(name="Vereinsmeisterschaft 2026")
    response = client.get(reverse("tournaments:print", args=[tournament.pk, "standings"]))
    assert response.status_code == 200
    nonce = re.search(r"<style nonce=\"([^\"]+)\">", response.content.decode()).group(1)
    assert len(nonce) >= 16
    assert policy(response) == {**POLICY, "style-src": f"'self' 'nonce-{nonce}'"}
    # Each response has its own nonce.
    assert policy(client.get(response.request["PATH_INFO"]))["style-src"] != f"'self' 'nonce-{nonce}'"


def _shape(path: str) -> str:
    """One page per kind: /members/12/ and /members/13/ are the same template."""
    return re.sub(r"\d+", "N", path)


def crawl(client, start: list[str], limit: int = 120) -> dict[str, str]:
    """The HTML of the pages reachable by links from ``start`` (one page of each URL shape)."""
    seen, pages, queue = set(), {}, list(start)
    while queue and len(pages) < limit:
        url = queue.pop(0)
        path = urlparse(url).path
        if _shape(path) in seen or path.startswith(("/admin/", "/static/", "/i18n/")):
            continue
        seen.add(_shape(path))
        response = client.get(url)
        if 300 <= response.status_code < 400:  # (a league division's result entry: another page of the shape)
            seen.discard(_shape(path))
            continue
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        # Long pages (the print layouts) are streamed.
        body = b"".join(response.streaming_content) if response.streaming else response.content
        html = body.decode()
        pages[url] = html
        for href in re.findall(r"href=\"([^\"#]+)\"", html):
            target = urljoin(url, href.replace("&amp;", "&"))
            if urlparse(target).netloc in ("", "testserver") and "pdf" not in target:
                queue.append(target)
    return pages


def test_no_page_has_inline_scripts_or_styles(client, demo):
    client.force_login(User.objects.get(username="admin"))
    pages = crawl(client, ["/"])
    # The crawl reached the main kinds of page: tournaments, rounds, result entry, members,
    # rating lists, calculators, print layouts, password change.
    shapes = {_shape(urlparse(url).path) for url in pages}
    assert {
        "/", "/tournaments/", "/tournaments/N/", "/tournaments/N/round/N/", "/members/", "/members/N/",
        "/ratings/", "/ratings/calculators/", "/accounts/password/change/",
    } <= shapes
    assert any(shape.endswith("/results/") for shape in shapes)
    assert any("print" in shape for shape in shapes)
    offending = {url: inline_code(html) for url, html in pages.items() if inline_code(html)}
    assert offending == {}


def test_account_pages_have_no_inline_scripts_or_styles(client):
    pages = crawl(client, ["/accounts/login/", "/accounts/password/reset/", "/accounts/password/reset/done/"])
    assert len(pages) >= 3
    assert {url: inline_code(html) for url, html in pages.items() if inline_code(html)} == {}
