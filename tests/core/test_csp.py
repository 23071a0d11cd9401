"""The Content-Security-Policy admits only the application's own scripts, styles and images, and no
page relies on an inline script, an event-handler attribute or a style attribute: the site crawl
(tests/browser/test_site_crawl.py) checks the served HTML of every page it visits, for every role,
with ``inline_code`` (tests/crawl_checks.py); its tests are here."""

import re

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Tournament
from tests.crawl_checks import inline_code

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
