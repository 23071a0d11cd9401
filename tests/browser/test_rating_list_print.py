"""A visitor opens a rating list, prints it (A4 print layout) and downloads its PDF."""

import subprocess

import pytest

from clubrating.clubs.models import Sex
from ratings.services.lists import EntryData, list_publish
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool
from tests.ratings.views.conftest import home_club  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


LAST_NAMES = [
    "Huber", "Gruber", "Wagner", "Bauer", "Pichler", "Steiner", "Moser", "Mayer", "Hofer", "Leitner",
]
FIRST_NAMES = ["Anna", "Bernd", "Clara", "David", "Eva", "Franz", "Gerda", "Hans", "Ines"]


@pytest.fixture
def long_list(home_club):  # noqa: F811 (the imported fixture)
    """90 members: the printed list runs over two A4 pages (45 rows each)."""
    pool = make_pool(name="Standard")
    members = [
        MemberFactory(last_name=LAST_NAMES[i % 10], first_name=f"{FIRST_NAMES[i % 9]} {i}", club=home_club,
                      sex=Sex.FEMALE if i % 3 == 0 else Sex.MALE, birth_year=1950 + i % 60)
        for i in range(90)
    ]
    plist = list_publish(
        pool=pool,
        entries={m.pk: EntryData(rating=2350 - 11 * i, games_count=20 + i) for i, m in enumerate(members)},
        kind="start", valid_from=pool.start_date,
    )
    return plist


def test_visitor_prints_the_rating_list(page, live_server, artifacts_dir, shoot, long_list, tmp_path):
    page.goto(f"{live_server.url}/ratings/")
    page.get_by_role("link", name="Liste vom 01.01.2025").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Wertungsliste: Standard"
    assert page.locator("table.rating-list tbody tr").count() == 90

    page.get_by_role("link", name="Drucken").click()
    page.wait_for_load_state()
    # The print layout: club, title, header lines, every row, no navigation.
    assert page.locator("nav").count() == 0
    assert page.locator(".print-club").inner_text() == "Schachklub Donaustadt"
    assert page.locator(".print-head h1").inner_text() == "Wertungsliste: Standard"
    assert "Gültig ab 01.01.2025" in page.locator(".print-head").inner_text()
    assert page.locator("table.print-table tbody tr").count() == 90
    # A visitor's columns: rank, name, club, rating, … (no birth year, no sex: clubrating.clubs.privacy).
    assert page.locator("table.print-table thead th").nth(3).inner_text() == "Wertung"
    assert page.locator("table.print-table tbody tr").first.locator("td").nth(3).inner_text() == "2350"
    page.emulate_media(media="print")
    assert not page.locator(".print-toolbar").is_visible()
    shoot(page, "rating-list-print")
    page.emulate_media(media="screen")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="PDF").click()
    download = download_info.value
    assert download.suggested_filename == "Wertungsliste_Standard_2025-01-01.pdf"
    pdf = artifacts_dir / "rating-list.pdf"
    download.save_as(str(pdf))
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and len(data) > 10_000

    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "595.276 x 841.89 pts (A4)" in info
    assert int(info.split("Pages:")[1].split()[0]) == 2
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    # The running header and the page number on every page.
    for number, page_text in enumerate(pages[:2], start=1):
        assert "Schachklub Donaustadt · Wertungsliste: Standard" in page_text
        assert "Gültig ab 01.01.2025" in page_text
        assert f"Seite {number} von 2" in page_text
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "2", str(pdf),
                    str(artifacts_dir / "rating-list-pdf-page")], check=True)
    assert (artifacts_dir / "rating-list-pdf-page-1.png").stat().st_size > 10_000
