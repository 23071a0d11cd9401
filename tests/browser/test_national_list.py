"""The rating officer imports the national list in German, at 1366 px and on a phone (390 px):
upload, columns (guessed), preview with its figures, apply as a background job, and the list on
the member's page. Every page fits the screen."""

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User

from tests.factories import ClubFactory, MemberFactory
from tests.paths import DATA_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIST = DATA_DIR / "national-list.csv"


def _fits(page) -> bool:
    return page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", [1366, 390])
def test_the_officer_imports_the_national_list(page, live_server, login, shoot, width):
    club = ClubFactory(name="Schachklub Heimat", is_home=True, public_ratings=True)
    huber = MemberFactory(last_name="Huber", first_name="Anna", national_id="1001", club=club)
    others = (("Maier", "Karl", "1002"), ("Adler", "Max", "1003"), ("Dorn", "Eva", "1005"))
    for last, first, national_id in others:
        MemberFactory(last_name=last, first_name=first, national_id=national_id, club=club)
    officer = User.objects.create_user("officer", password="officer-pw")
    officer.groups.add(Group.objects.get_or_create(name=settings.RATING_OFFICERS_GROUP)[0])
    page.set_viewport_size({"width": width, "height": 900})
    login(page, "officer", "officer-pw")

    page.goto(f"{live_server.url}/ratings/officer/")
    page.get_by_role("link", name="Nationale Elo-Liste …").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Nationale Elo-Liste"
    assert _fits(page)
    shoot(page, f"national-list-upload-{width}")
    page.set_input_files("input[name=file]", str(LIST))
    page.fill("input[name=list_date]", "1.10.2026")
    page.get_by_role("button", name="Weiter: Spalten").click()
    page.wait_for_load_state()

    assert page.locator("h1").inner_text() == "Spalten der nationalen Liste"
    assert page.locator("select[name=national_id]").input_value() == "ösb-nr"
    assert page.locator("select[name=rating]").input_value() == "elo"
    assert page.locator("select[name=club]").input_value() == "verein"
    assert _fits(page)
    shoot(page, f"national-list-columns-{width}")
    page.get_by_role("button", name="Vorschau").click()
    page.wait_for_load_state()

    assert page.locator("#import-summary").inner_text() == (
        "3 Mitglieder zugeordnet, 2 Elo-Änderungen, 1 unbekannte ÖSB-Nummer, 1 Mitglied nicht auf der "
        "Liste, 2 ungültige Zeilen.")
    assert page.locator("#changes li").all_inner_texts() == ["Huber, Anna: — → 1650", "Maier, Karl: — → 1712"]
    assert page.locator("#invalid li").all_inner_texts() == [
        "Zeile 6: Spalte „elo“ „4000“ ist keine Wertungszahl: 0 (ohne Wertung) oder 100 bis 3000.",
        "Zeile 7: ÖSB-Nummer 1002 steht schon in Zeile 3.",
    ]
    assert _fits(page)
    shoot(page, f"national-list-preview-{width}")
    page.get_by_role("button", name="Jetzt importieren").click()
    page.wait_for_load_state()

    assert page.locator("#job-message").inner_text() == (
        "Nationale Liste gespeichert: 3 Mitglieder, 3 Einträge geändert.")
    assert page.locator("#count-saved").inner_text() == "3"
    assert _fits(page)
    shoot(page, f"national-list-done-{width}")

    page.goto(f"{live_server.url}{huber.get_absolute_url()}")
    rows = page.locator("#national-ratings tbody tr")
    assert rows.nth(0).locator("td").all_inner_texts() == ["01.10.2026", "1650", "12"]
    assert _fits(page)
    shoot(page, f"national-list-member-{width}")
