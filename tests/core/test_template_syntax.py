"""No template syntax reaches a reader: every template comment closes on its own line, and no
page, print layout or PDF shows "{#", "{%" or "{{" (a multi-line ``{# #}`` in the print layouts'
base template once put "{# The running header … #}" at the top of every printed page and PDF).
Every page's served HTML and every PDF the site crawl reaches is checked the same way
(``source_checks`` and ``pdf_checks`` in tests/crawl_checks.py); here every print layout and PDF of
every tournament and list."""

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from clubrating.tournaments.models import Tournament
from ratings.models import PublishedList, RatingPool
from tests.crawl_checks import SYNTAX, visible
from tests.language import speak

pytestmark = pytest.mark.django_db



def template_files() -> list[Path]:
    roots = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]]
    roots += [p / "templates" for p in (Path(settings.BASE_DIR) / "clubrating").iterdir() if p.is_dir()]
    roots += [Path(settings.BASE_DIR) / "ratings" / "templates"]
    return sorted(f for root in roots if root.is_dir() for f in root.rglob("*") if f.is_file())


def test_every_template_comment_closes_on_its_line():
    files = template_files()
    assert len(files) > 50
    unclosed = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            # Django's {# #} is single-line: an unclosed one is printed as text.
            for start in (m.start() for m in re.finditer(r"\{#", line)):
                if "#}" not in line[start:]:
                    unclosed.append(f"{path.relative_to(settings.BASE_DIR)}:{number}")
    assert unclosed == []


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True)
    return done.stdout.decode()


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.fixture
def demo(demo_club, db):
    """The demo club of the whole module (tests/core/conftest.py)."""


def print_urls() -> list[str]:
    urls = []
    for tournament in Tournament.objects.order_by("pk"):
        urls += [reverse("tournaments:print", args=[tournament.pk, kind])
                 for kind in ("standings", "crosstable")]
        if tournament.rounds.exists():
            urls.append(reverse("tournaments:round_print", args=[tournament.pk, 1]))
    urls += [reverse("ratings:list_print", args=[plist.pk]) for plist in PublishedList.objects.order_by("pk")]
    urls += [reverse("ratings:live_print", args=[pool.pk]) for pool in RatingPool.objects.order_by("pk")]
    return urls


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de-at", "en"])
def test_print_layouts_and_their_pdfs_show_no_template_syntax(client, demo, lang):
    speak(client, lang)
    urls = print_urls()
    assert len(urls) >= 6
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = body(response).decode()
        assert not SYNTAX.findall(visible(html)), url
        assert "running header" not in html, url
    pdfs = [f"{url}?pdf=1" for url in urls if url.startswith("/tournaments/")]
    pdfs += [reverse("ratings:list_pdf", args=[plist.pk]) for plist in PublishedList.objects.order_by("pk")]
    for url in pdfs:
        response = client.get(url)
        assert response["Content-Type"] == "application/pdf", url
        text = pdf_text(body(response))
        assert text.strip(), url
        assert not SYNTAX.findall(text), url
        assert "running header" not in text, url
