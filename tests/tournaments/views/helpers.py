"""Small helpers of the tournament page tests."""

from django.urls import reverse

LANGS = ["en", "de-at"]


def page(client, name: str, *args, lang: str = "en", **params):
    """GET a tournaments page in ``lang`` (Accept-Language, as a browser sends it)."""
    return client.get(reverse(f"tournaments:{name}", args=args), params, HTTP_ACCEPT_LANGUAGE=lang)


def text(response) -> str:
    return response.content.decode()
