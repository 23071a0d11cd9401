"""Names typed by officials (club, tournament, place) and the list filter's club reach the print
layouts' running header, a CSS string inside a ``<style>`` element: there they stay text and cannot
end the style block."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from clubrating.clubs.models import Club
from tests.ratings.views.conftest import home_club, rated_club  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

HOSTILE = "</style><meta http-equiv=refresh content=0;url=https://evil.example/><img src=x onerror=alert(1)>"


class Elements(HTMLParser):
    """The start tags of a page as a browser's tokenizer sees them (``<style>`` is raw text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def injected(html: str) -> list[tuple[str, dict]]:
    parser = Elements()
    parser.feed(html)
    return [(tag, attrs) for tag, attrs in parser.tags
            if tag in {"meta", "img"} and "charset" not in attrs or "onerror" in attrs]


def streamed(response) -> str:
    return b"".join(response.streaming_content).decode("utf-8-sig")


def test_hostile_names_stay_text_on_the_tournament_print_pages(client, rated_club):  # noqa: F811
    Club.objects.filter(is_home=True).update(name=f"Klub {HOSTILE}")
    autumn = rated_club["autumn"]
    autumn.name, autumn.place = f"Turnier {HOSTILE}", f"Ort {HOSTILE}"
    autumn.save()
    for url in (reverse("tournaments:print", args=[autumn.pk, "standings"]),
                reverse("tournaments:print", args=[autumn.pk, "crosstable"]),
                reverse("tournaments:round_print", args=[autumn.pk, 1])):
        html = client.get(url).content.decode()
        assert injected(html) == [], url
        assert ('content: "Klub \\3c /style\\3e \\3c meta http-equiv=refresh '
                'content=0;url=https://evil.example/\\3e \\3c img src=x onerror=alert(1)\\3e  · Turnier '
                '\\3c /style') in html, url
        # In the page's body the names are HTML-escaped text.
        assert '<div class="print-club">Klub &lt;/style&gt;&lt;meta http-equiv=refresh' in html, url


def test_hostile_club_filter_stays_text_on_the_list_print_page(client, rated_club):  # noqa: F811
    rated_club["other_club"].name = HOSTILE
    rated_club["other_club"].save()
    url = reverse("ratings:list_print", args=[rated_club["list"].pk])
    html = streamed(client.get(url, {"club": HOSTILE}))
    assert injected(html) == []
    assert "\\3c /style\\3e \\3c meta http-equiv=refresh" in html
    assert "Moser, Clara" in html


def pdf_text(content: bytes) -> str:
    from io import BytesIO

    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(content)).pages)


def test_hostile_names_are_printed_literally_in_the_pdfs(client, rated_club):  # noqa: F811
    Club.objects.filter(is_home=True).update(name="Klub </style><b>fett</b>")
    autumn = rated_club["autumn"]
    autumn.place = 'Ort "><script>alert(1)</script>'
    autumn.save()
    anna = rated_club["anna"]
    anna.last_name = "<i>Berger</i>"
    anna.save()
    url = reverse("tournaments:round_print", args=[autumn.pk, 1])
    pairings = pdf_text(client.get(url, {"pdf": 1}).content)
    # The running header (an @page margin box) and the title block, both literally.
    assert pairings.count("Klub </style><b>fett</b>") == 2
    assert pairings.count('Ort "><script>alert(1)</script>') == 2
    assert "<i>Berger</i>, Anna" in pairings
    listed = pdf_text(client.get(reverse("ratings:list_pdf", args=[rated_club["list"].pk])).content)
    # ReportLab draws each cell as a string (no markup), names and clubs in full.
    assert "Klub </style><b>fett</b> · Wertungsliste: Standard" in listed
    # Visitors read it without birth year and sex (clubrating.clubs.privacy).
    assert "2 <i>Berger</i>, Anna Klub </style><b>fett</b> 1835 +5 11 1 A" in listed
