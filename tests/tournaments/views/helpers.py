"""Small helpers of the tournament page tests."""

from django.urls import reverse

from tests.language import speak

LANGS = ["en", "de-at"]


def page(client, name: str, *args, lang: str = "en", **params):
    """GET a tournaments page in ``lang`` (chosen with the language switcher's cookie)."""
    return speak(client, lang).get(reverse(f"tournaments:{name}", args=args), params)


def text(response) -> str:
    return response.content.decode()
