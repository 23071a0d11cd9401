"""The page language: the one chosen with the language switcher, else German."""

from django.conf import settings
from django.middleware import locale
from django.utils import translation
from django.utils.cache import patch_vary_headers

from clubrating.clubs.selectors import home_club_remembered


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's locale middleware without the browser's Accept-Language.

    An Austrian club's site speaks German unless the visitor switches: an English browser (or a
    headless test browser set to en-US) must not turn the pages English behind the visitor's back.
    So the language comes from the switcher's cookie (``set_language`` sets it), else from
    ``settings.LANGUAGE_CODE``.
    """

    def process_request(self, request):
        translation.activate(chosen_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        # The parent's response handling without its Accept-Language Vary: the site uses no
        # language-prefixed URLs, so only the cookie decides what a cache may reuse.
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


def chosen_language(cookie: str | None) -> str:
    """The supported language the cookie names, else the site's default language."""
    if cookie:
        try:
            # Lower case: the code must equal one of settings.LANGUAGES (the switcher marks it selected).
            return translation.get_supported_language_variant(cookie.lower())
        except LookupError:
            pass
    return settings.LANGUAGE_CODE


class HomeClubMiddleware:
    """One read of the own club per request (see ``clubrating.clubs.selectors.home_club``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with home_club_remembered():
            return self.get_response(request)
