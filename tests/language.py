"""Choosing the page language in tests the way a visitor does: with the language switcher's cookie."""

from django.conf import settings


def speak(client, lang: str):
    """Make ``client``'s next requests ask for ``lang`` as if the switcher had chosen it."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client
