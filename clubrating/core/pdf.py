"""PDF responses rendered by WeasyPrint from the print templates.

Static files are read from disk through the staticfiles finders, never over the network: the
application works without internet access and a PDF must not depend on a running web server.
"""

from __future__ import annotations

import mimetypes
import re
import unicodedata
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

# A base URL that never resolves on a network; every resource must come from the fetcher below.
_BASE_URL = "http://clubrating.invalid/"


def safe_filename(name: str) -> str:
    """An ASCII file name for Content-Disposition ("Schnellschach Ü18.pdf" -> "Schnellschach_U18.pdf")."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_name).strip("_") or "download"


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string (for ``@page`` margin boxes); newlines become line breaks."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\A ")
    return f'"{escaped}"'


def _static_file(url: str) -> tuple[bytes, str]:
    path = unquote(urlparse(url).path)
    static_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    if not path.startswith(static_prefix):
        raise ValueError(f"PDF resources must be static files: {url}")
    found = finders.find(path[len(static_prefix):])
    if not found:
        raise ValueError(f"static file not found: {url}")
    with open(found, "rb") as handle:
        return handle.read(), mimetypes.guess_type(found)[0] or "application/octet-stream"


def _fetcher():
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            body, mime_type = _static_file(url)
            return URLFetcherResponse(url, body, {"Content-Type": mime_type})

    return StaticFetcher()


def render_pdf(request: HttpRequest | None, template: str, context: dict) -> bytes:
    """The PDF bytes of ``template``; the template sees ``pdf=True`` in its context."""
    from weasyprint import HTML  # imported late: loading WeasyPrint takes a noticeable moment

    html = render_to_string(template, {**context, "pdf": True}, request=request)
    return HTML(string=html, base_url=_BASE_URL, url_fetcher=_fetcher()).write_pdf()


def render_pdf_response(request: HttpRequest, template: str, context: dict, filename: str) -> HttpResponse:
    """An ``application/pdf`` download of ``template`` rendered with ``context``."""
    response = HttpResponse(render_pdf(request, template, context), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{safe_filename(filename)}"'
    return response


def print_context(*, title: str, lines: list[str], back_url: str = "", pdf_url: str = "") -> dict:
    """What ``templates/print/base_print.html`` needs: the title block and the running header.

    The running header (club, title, lines) is printed on every page through an ``@page`` margin
    box, which both WeasyPrint and Chromium's print support; it therefore has to be a CSS string.
    """
    from clubrating.clubs.models import Club

    club = Club.objects.filter(is_home=True).first()
    club_name = club.name if club else "ClubRating"
    header = f"{club_name} · {title}\n" + " · ".join(str(line) for line in lines if line)
    return {
        "print_title": title,
        "print_lines": [line for line in lines if line],
        "print_club": club_name,
        "print_header_css": css_string(header),
        "print_back_url": back_url,
        "print_pdf_url": pdf_url,
    }
