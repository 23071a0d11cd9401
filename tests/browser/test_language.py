"""An English browser gets the club's German pages until the visitor picks English in the switcher."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_english_browser_sees_german_until_it_switches(page, live_server):
    page.goto(f"{live_server.url}/tournaments/")
    assert page.evaluate("navigator.language") == "en-US"
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").first.inner_text() == "Turniere"

    with page.expect_navigation():
        page.get_by_label("Sprache").select_option("en")
    assert page.url == f"{live_server.url}/tournaments/"
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h1").first.inner_text() == "Tournaments"

    page.goto(f"{live_server.url}/tournaments/")  # the choice sticks (the cookie)
    assert page.locator("h1").first.inner_text() == "Tournaments"


def test_the_switchers_cookie_chooses_english(page, live_server, speak_english):
    page.goto(f"{live_server.url}/tournaments/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h1").first.inner_text() == "Tournaments"
