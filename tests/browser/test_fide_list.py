"""The rating officer's FIDE list in Chromium, in German at 1366 and 390 px: upload FIDE's list,
read the preview, import it, look a new player up by his FIDE ID and add him as a member; the
member page then shows his FIDE history. No page scrolls sideways."""

import zipfile

import pytest
from django.contrib.auth.models import Group, User

from clubrating.clubs.models import Club, Member
from clubrating.federation.models import FideUploadPart
from tests.factories import MemberFactory
from tests.paths import FIDE_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTHS = (1366, 390)


@pytest.fixture
def officer_site(settings, tmp_path):
    club = Club.objects.create(name="Schachklub Donaustadt-Floridsdorf 1923", short_name="SK Donaustadt",
                               is_home=True)
    MemberFactory(last_name="Ragger", first_name="Markus", club=club, fide_id=1600059, fide_rating=2600)
    MemberFactory(last_name="Mueller", first_name="Hans", club=club, fide_id=1601393, fide_rating=2301,
                  federation="GER")
    MemberFactory(last_name="Weg", first_name="Otto", club=club, fide_id=1699999, fide_rating=1800)
    user = User.objects.create_user("referent", password="geheim-2026")
    user.groups.add(Group.objects.get_or_create(name=settings.RATING_OFFICERS_GROUP)[0])
    archive = tmp_path / "players_list.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.write(FIDE_DIR / "players_list_foa.txt", "players_list_foa.txt")
    return archive


def _look(page, shoot, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), (name, width)
        shoot(page, f"fide-{name}-{width}")


def test_upload_preview_import_and_add_a_new_player(page, live_server, login, shoot, officer_site):
    login(page, "referent", "geheim-2026")
    page.goto(f"{live_server.url}/members/")
    page.get_by_role("link", name="FIDE-Elo-Liste importieren").click()
    page.wait_for_load_state()
    _look(page, shoot, "upload")
    page.set_input_files("#fide-upload input[type=file]", str(officer_site))
    page.get_by_label("Monat der Liste").fill("2026-11")
    page.get_by_role("button", name="Vorschau").click()
    page.wait_for_url("**/jobs/*/")
    assert page.locator("#job-message").inner_text() == (
        "FIDE-Liste 2026-11: 6 Spieler gelesen, 2 Mitglieder gefunden, 2 Mitglieder werden aktualisiert; "
        "die FIDE-ID von 1 Mitglied ist nicht in der Liste.")
    assert page.locator("#fide-standard h2").inner_text() == "Änderungen Standard-Elo (1)"
    assert "2600 → 2629" in page.locator("#fide-standard").inner_text()
    assert "Weg, Otto" in page.locator("#fide-missing").inner_text()
    assert "GER → AUT" in page.locator("#fide-federations").inner_text()
    _look(page, shoot, "preview")

    preview = page.url
    page.get_by_role("button", name="Jetzt importieren").click()
    page.wait_for_url(lambda url: url != preview and "/jobs/" in url)
    assert page.locator("#job-message").inner_text().startswith(
        "FIDE-Liste 2026-11: 6 Spieler gelesen, 2 Mitglieder gefunden, 2 Mitglieder aktualisiert;")
    assert Member.objects.get(fide_id=1600059).fide_rating == 2629
    _look(page, shoot, "imported")

    page.get_by_role("link", name="Ergebnis anzeigen").click()
    page.wait_for_load_state()
    page.get_by_label("FIDE-ID oder Name").fill("1612345")
    page.get_by_role("button", name="Suchen").click()
    page.wait_for_load_state()
    assert "Huber, Anna" in page.locator("#fide-results").inner_text()
    _look(page, shoot, "lookup")
    page.get_by_role("link", name="Huber, Anna").click()
    page.wait_for_load_state()
    _look(page, shoot, "player")
    page.get_by_role("button", name="Mit diesen Daten anlegen").click()
    page.wait_for_load_state()
    member = Member.objects.get(fide_id=1612345)
    assert (member.full_name, member.fide_rating, member.fide_title, member.club.is_home) == (
        "Huber, Anna", 2001, "WFM", True)
    assert page.url.endswith(member.get_absolute_url())
    assert "November 2026" in page.locator("#fide-history").inner_text()
    _look(page, shoot, "member")
    assert not FideUploadPart.objects.exists()
