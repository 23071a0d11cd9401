"""Small helpers of the tournament page tests."""

from django.urls import reverse

from tests.language import speak

LANGS = ["en", "de-at"]


def page(client, name: str, *args, lang: str = "en", **params):
    """GET a tournaments page in ``lang`` (chosen with the language switcher's cookie)."""
    return speak(client, lang).get(reverse(f"tournaments:{name}", args=args), params)


def text(response) -> str:
    return response.content.decode()


def assert_sent_to_login(client, gets, posts) -> None:
    """A visitor asking for a protected page is sent to the login page (and back afterwards)."""
    for url in gets:
        response = client.get(url)
        assert (response.status_code, response.url) == (302, f"{reverse('login')}?next={url}"), url
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), url


def assert_forbidden(client, gets, posts) -> None:
    """A logged-in user without the role gets 403 for every page and action."""
    for url in gets:
        assert client.get(url).status_code == 403, url
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
