"""Browsers ask every site for /favicon.ico: it leads to the static icon the pages link to."""

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_favicon_ico_redirects_to_the_static_icon(client):
    response = client.get("/favicon.ico")
    assert (response.status_code, response.url) == (301, "/static/img/favicon.svg")
    assert finders.find("img/favicon.svg")


def test_pages_link_the_icon(client):
    html = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in html
