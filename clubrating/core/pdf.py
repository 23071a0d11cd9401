"""PDF responses rendered by WeasyPrint from the print templates, and print layouts streamed.
(Long tables such as a federation's rating list are drawn by ``clubrating.core.table_pdf``.)

Static files are read from disk through the staticfiles finders or storage, never over the
network: the application works without internet access and a PDF must not depend on a running
web server. Under a manifest storage (production) the templates name the hashed files
("css/print.1a2b3c.css"); those are found in the storage or mapped back to their source.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterable, Iterator
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from clubrating.core.downloads import attachment

# A base URL that never resolves on a network; every resource must come from the fetcher below.
_BASE_URL = "http://clubrating.invalid/"


# Characters that end a CSS string, close the <style> element around it or mean something to an
# HTML parser: written as CSS hex escapes ("\\3c "), which no HTML parser reads as markup. The space
# after each escape belongs to the escape (CSS Syntax Level 3, 4.3.7), so a following hex digit
# cannot extend it.
_CSS_ESCAPED = re.compile(r'[\x00-\x1f\x7f"\'\\<>&]')


def css_string(text: str) -> SafeString:
    """``text`` as a quoted CSS string (for ``@page`` margin boxes), safe to print inside a
    ``<style>`` element: quotes, backslashes, ``<``, ``>``, ``&`` and control characters are CSS
    escapes; a newline becomes ``\\a `` (a line break where ``white-space: pre`` keeps it)."""
    escaped = _CSS_ESCAPED.sub(lambda match: f"\\{ord(match.group()):x} ", text.replace("\r\n", "\n"))
    return mark_safe(f'"{escaped}"')  # every character an HTML parser would act on is escaped


def _static_file(url: str) -> tuple[bytes, str]:
    path = unquote(urlparse(url).path)
    static_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    if not path.startswith(static_prefix):
        raise ValueError(f"PDF resources must be static files: {url}")
    name = path[len(static_prefix):]
    mime_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    found = finders.find(name) or finders.find(_unhashed(name))
    if found:
        with open(found, "rb") as handle:
            return handle.read(), mime_type
    if staticfiles_storage.exists(name):  # collected (hashed) into STATIC_ROOT
        with staticfiles_storage.open(name) as handle:
            return handle.read(), mime_type
    raise ValueError(f"static file not found: {url}")


def _unhashed(name: str) -> str:
    """The source name of a manifest storage's hashed name ("css/print.1a2b.css" -> "css/print.css")."""
    hashed_files = getattr(staticfiles_storage, "hashed_files", None) or {}
    for source, hashed in hashed_files.items():
        if hashed == name:
            return source
    return name


def _fetcher():
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            body, mime_type = _static_file(url)
            return URLFetcherResponse(url, body, {"Content-Type": mime_type})

    return StaticFetcher()


def render_pdf(request: HttpRequest | None, template: str, context: dict) -> bytes:
    """The PDF bytes of ``template``; the template sees ``pdf=True`` in its context."""
    return pdf_from_html(render_to_string(template, {**context, "pdf": True}, request=request))


def pdf_from_html(html: str) -> bytes:
    from weasyprint import HTML  # imported late: loading WeasyPrint takes a noticeable moment

    return HTML(string=html, base_url=_BASE_URL, url_fetcher=_fetcher()).write_pdf()


def render_pdf_response(request: HttpRequest, template: str, context: dict, filename: str) -> HttpResponse:
    """An ``application/pdf`` download of ``template`` rendered with ``context``."""
    return pdf_response(render_pdf(request, template, context), filename)


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """An ``application/pdf`` download of PDF bytes."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = attachment(filename)
    return response


ROWS_MARKER = "<!--clubrating:rows-->"


def streamed_print(
    request: HttpRequest | None, template: str, context: dict, rows: Iterable[str], *, chunk: int = 500
) -> Iterator[str]:
    """``template`` rendered in pieces: everything before ``{{ rows_marker }}`` at once (the first
    byte goes out before any row is read), then the ``rows`` (HTML) in chunks, then the rest.
    The pieces are rendered in the language active now, whenever the server reads them."""
    html = render_to_string(template, {**context, "rows_marker": mark_safe(ROWS_MARKER)}, request=request)
    head, tail = html.split(ROWS_MARKER, 1)
    language = translation.get_language()

    def pieces() -> Iterator[str]:
        yield head
        with translation.override(language):
            buffer: list[str] = []
            for row in rows:
                buffer.append(row)
                if len(buffer) >= chunk:
                    yield "".join(buffer)
                    buffer = []
            yield "".join(buffer) + tail

    return pieces()


def print_context(*, club_name: str, title: str, lines: list[str], back_url: str = "",
                  pdf_url: str = "") -> dict:
    """What ``templates/print/base_print.html`` needs: the title block and the running header.

    The running header (club, title, lines) is printed on every page through an ``@page`` margin
    box, which both WeasyPrint and Chromium's print support; it therefore has to be a CSS string.
    ``club_name`` is the own club's (``clubrating.clubs.selectors.home_club_name``).
    """
    header = f"{club_name} · {title}\n" + " · ".join(str(line) for line in lines if line)
    return {
        "print_title": title,
        "print_lines": [line for line in lines if line],
        "print_club": club_name,
        "print_header_css": css_string(header),
        "print_back_url": back_url,
        "print_pdf_url": pdf_url,
    }
