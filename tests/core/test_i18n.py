import pytest
from django.conf import settings
from django.urls import reverse

from clubrating.site.middleware import chosen_language

pytestmark = pytest.mark.django_db


def test_german_is_the_default(client):
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Turniere" in html
    assert 'lang="de"' in html


def test_switching_language_switches_the_text(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/tournaments/"})
    assert response.status_code == 302
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Tournaments" in html
    assert "Turniere" not in html
    client.post(reverse("set_language"), {"language": "de-at", "next": "/"})
    assert "Turniere" in client.get(reverse("tournaments:list")).content.decode()


def test_austrian_number_and_date_formats():
    import datetime

    from django.utils import formats, translation

    with translation.override("de-at"):
        assert formats.date_format(datetime.date(2026, 11, 22), "SHORT_DATE_FORMAT") == "22.11.2026"
        assert formats.number_format(1234.5, 1, use_l10n=True, force_grouping=True) == "1.234,5"
    with translation.override("en"):
        assert formats.number_format(1234.5, 1, use_l10n=True, force_grouping=True) == "1,234.5"


def test_an_english_browser_without_a_choice_gets_german(client):
    response = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    html = response.content.decode()
    assert 'lang="de"' in html
    assert "Turniere" in html
    assert response["Content-Language"] == "de-at"


def test_the_switchers_cookie_english_gets_english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="de-AT,de;q=0.9")
    html = response.content.decode()
    assert 'lang="en"' in html
    assert "Tournaments" in html
    assert "Turniere" not in html
    assert response["Content-Language"] == "en"


def test_the_switcher_sets_the_cookie_and_the_next_page_is_english(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/tournaments/"},
                           HTTP_ACCEPT_LANGUAGE="de-at")
    assert (response.status_code, response["Location"]) == (302, "/tournaments/")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    html = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="de-at").content.decode()
    assert 'lang="en"' in html
    assert "Tournaments" in html


@pytest.mark.parametrize("cookie", ["fr", "xx-yy", "", "en" * 300])
def test_an_unsupported_cookie_falls_back_to_german(client, cookie):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    html = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="de"' in html
    assert "Turniere" in html


@pytest.mark.parametrize(("cookie", "language"), [
    (None, "de-at"), ("", "de-at"), ("fr", "de-at"), ("en", "en"), ("en-us", "en"), ("de-at", "de-at"),
    ("de", "de-at"), ("de-AT", "de-at"),
])
def test_chosen_language_accepts_only_supported_languages(cookie, language):
    assert chosen_language(cookie) == language


def test_the_response_varies_on_the_cookie_not_on_accept_language(client):
    response = client.get(reverse("tournaments:list"))
    vary = [part.strip() for part in response["Vary"].split(",")]
    assert "Cookie" in vary
    assert "Accept-Language" not in vary
