"""The rating officer's pages: upload, preview, import; the officials' lookup and adding a player."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.federation.models import FideFollow, FideList, FideRating
from clubrating.federation.services import fide_list_import
from clubrating.federation.views import SESSION_KEY
from clubrating.jobs.models import Job, JobState
from tests.factories import ClubFactory, MemberFactory
from tests.paths import FIDE_DIR

from .conftest import NOVEMBER, snapshot

pytestmark = pytest.mark.django_db
IMPORT = reverse("federation:fide_import")
LOOKUP = reverse("federation:fide_lookup")


def _upload(client, name="players_list_foa.txt", data=None, month="2026-11"):
    data = data if data is not None else (FIDE_DIR / "players_list_foa.txt").read_bytes()
    return client.post(IMPORT, {"file": SimpleUploadedFile(name, data), "month": month})


@pytest.mark.parametrize("url", [IMPORT, LOOKUP, reverse("federation:fide_player", args=[1600059])])
def test_a_visitor_is_sent_to_the_login(client, url):
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_only_the_rating_officer_imports_the_list(client, official):
    client.force_login(official)
    assert client.get(IMPORT).status_code == 403
    assert _upload(client).status_code == 403
    assert client.get(LOOKUP).status_code == 200  # officials look players up
    client.force_login(User.objects.create_user("plain", password="pw"))
    assert client.get(LOOKUP).status_code == 403
    assert Job.objects.count() == 0


def test_upload_preview_and_import(officer_client, officer, uploads):
    ragger = MemberFactory(last_name="Ragger", first_name="Markus", fide_id=1600059, fide_rating=2600)
    response = _upload(officer_client)
    job = Job.objects.get()
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.key, job.started_by) == (JobState.DONE, "fide-list", officer)
    assert job.message == ("FIDE list 2026-11: 6 players read, 1 member found, 1 member will be updated; "
                           "0 members' FIDE IDs are not in the list.")
    assert Member.objects.get().fide_rating == 2600 and FideList.objects.count() == 0
    html = officer_client.get(response["Location"]).content.decode()
    token = officer_client.session[SESSION_KEY]["token"]
    assert f'<input type="hidden" name="token" value="{token}">' in html
    assert '<h2 class="h6">Standard rating changes (1)</h2>' in html
    assert "2600 → 2629</td><td class=\"text-end\">+29</td>" in html
    assert uploads.tokens() == [token] and uploads.files() == []

    response = officer_client.post(IMPORT, {"confirm": "1", "token": token})
    job = Job.objects.latest("pk")
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert (job.state, job.report["done"], job.report["counts"]["updated"]) == (JobState.DONE, True, 1)
    ragger.refresh_from_db()
    assert (ragger.fide_rating, ragger.fide_title) == (2629, "GM")
    assert FideList.objects.get().imported_by == officer
    assert SESSION_KEY not in officer_client.session
    assert uploads.tokens() == [] and uploads.files() == []  # the list is deleted once imported
    # Confirming again finds nothing waiting.
    response = officer_client.post(IMPORT, {"confirm": "1", "token": token}, follow=True)
    assert "Nothing to import: upload the file again." in response.content.decode()


def test_a_malformed_list_fails_its_job_with_the_line_and_changes_nothing(officer_client, uploads):
    MemberFactory(fide_id=1600059, fide_rating=2600)
    before = snapshot()
    bad = (FIDE_DIR / "players_list_foa.txt").read_bytes().replace(b"AUT M   GM", b"AUT X   GM")
    _upload(officer_client, data=bad)
    job = Job.objects.get()
    assert (job.state, job.message) == (JobState.FAILED, "Line 2: Sex “X” is not one of M, F.")
    assert snapshot() == before
    assert uploads.tokens() == [] and uploads.files() == []  # the refused list is not kept


def test_a_bad_month_is_refused_on_the_form(officer_client):
    html = _upload(officer_client, month="11/2026").content.decode()
    assert "“11/2026” is not a month like 2026-11." in html
    assert Job.objects.count() == 0


def test_a_forged_token_imports_nothing(officer_client):
    _upload(officer_client)
    response = officer_client.post(IMPORT, {"confirm": "1", "token": "../../etc/passwd"}, follow=True)
    assert "Nothing to import: upload the file again." in response.content.decode()
    assert Job.objects.count() == 1


def _imported():
    path = FIDE_DIR / "players_list_foa.txt"
    fide_list_import(path=path, month=NOVEMBER, apply=True)


def test_lookup_by_fide_id_and_name_then_add_the_player(officer_client):
    _imported()
    club = ClubFactory(name="Schachklub Heimat", is_home=True)
    html = officer_client.get(LOOKUP, {"q": "1612345"}).content.decode()
    assert f'<a href="{reverse("federation:fide_player", args=[1612345])}">Huber, Anna</a>' in html
    html = officer_client.get(LOOKUP, {"q": "lüdenscheidt hans"}).content.decode()
    assert "Müller-Lüdenscheidt, Hans Jörg" in html and "Huber" not in html
    assert 'id="fide-none"' in officer_client.get(LOOKUP, {"q": "Kasparov"}).content.decode()  # not AUT

    page = officer_client.get(reverse("federation:fide_player", args=[1612345])).content.decode()
    assert f'<option value="{club.pk}" selected>Schachklub Heimat</option>' in page
    response = officer_client.post(reverse("federation:fide_player_add", args=[1612345]), {"club": club.pk})
    member = Member.objects.get()
    assert response["Location"] == member.get_absolute_url()
    assert (member.full_name, member.fide_rating, member.fide_title, member.birth_year, member.club) == (
        "Huber, Anna", 2001, "WFM", 2009, club)
    assert FideFollow.objects.filter(fide_id=1612345).exists()
    html = officer_client.get(LOOKUP, {"q": "Huber"}).content.decode()
    assert f'<a href="{member.get_absolute_url()}">Member</a>' in html
    response = officer_client.post(reverse("federation:fide_player_add", args=[1612345]), {"club": ""},
                                   follow=True)
    assert "A member with FIDE ID 1612345 exists already." in response.content.decode()
    assert Member.objects.count() == 1


def test_a_followed_guest_is_kept_month_by_month(officer_client):
    _imported()
    officer_client.post(reverse("federation:fide_player_follow", args=[1634567]))
    assert FideFollow.objects.get().fide_id == 1634567
    # His row of the latest list is kept at once, and the next import keeps it as it is.
    assert list(FideRating.objects.values_list("fide_id", "list__month", "birth_year")) == [
        (1634567, NOVEMBER, 1999)]
    before = list(FideRating.objects.values())
    _imported()
    assert list(FideRating.objects.values()) == before


def test_the_member_page_shows_the_fide_history(officer_client):
    client = officer_client
    member = MemberFactory(fide_id=1600059)
    _imported()
    html = client.get(member.get_absolute_url()).content.decode()
    assert '<section class="mt-4" id="fide-history">' in html
    assert '<td class="text-nowrap">November 2026</td><td class="text-end">2629</td>' in html
    other = MemberFactory(fide_id=None)
    assert 'id="fide-history"' not in client.get(other.get_absolute_url()).content.decode()


def test_the_pages_and_messages_are_german_by_default(client, officer):
    from tests.language import speak

    client.force_login(officer)
    speak(client, "de-at")
    html = client.get(IMPORT).content.decode()
    assert "<h1 class=\"h3\">FIDE-Elo-Liste importieren</h1>" in html and "Monat der Liste" in html
    bad = (FIDE_DIR / "players_list_foa.txt").read_bytes().replace(b"AUT M   GM", b"AUT X   GM")
    _upload(client, data=bad)
    assert Job.objects.get().message == "Zeile 2: Sex „X“ ist keiner der Werte M, F."
    _upload(client)
    job = Job.objects.latest("pk")
    assert job.message == ("FIDE-Liste 2026-11: 6 Spieler gelesen, 0 Mitglieder gefunden, 0 Mitglieder "
                           "werden aktualisiert; die FIDE-IDs von 0 Mitgliedern sind nicht in der Liste.")
    html = client.get(reverse("jobs:detail", args=[job.pk])).content.decode()
    assert '<h2 class="h6">Änderungen Standard-Elo (0)</h2>' in html
    html = client.get(LOOKUP, {"q": "Nobody"}).content.decode()
    assert "Kein Spieler der importierten Liste passt." in html  # nothing imported yet


def test_a_second_list_waits_for_the_first_and_its_upload_is_not_kept(officer_client, officer, uploads):
    Job.objects.create(key="fide-list", title="FIDE list import: a.zip", started_by=officer)
    html = _upload(officer_client).content.decode()
    assert "“FIDE list import: a.zip” is already waiting or running (started by officer, " in html
    assert Job.objects.count() == 1 and uploads.tokens() == [] and uploads.files() == []
    assert SESSION_KEY not in officer_client.session


def test_a_past_months_list_shows_the_kept_rows_best_first(officer_client):
    MemberFactory(fide_id=1612345)
    MemberFactory(fide_id=1600059)
    MemberFactory(fide_id=1634567)  # no standard rating: last
    _imported()
    html = officer_client.get(reverse("federation:fide_list", args=[2026, 11])).content.decode()
    names = [name for name in ("Ragger, Markus", "Huber, Anna", "Nobody") if name in html]
    assert names == ["Ragger, Markus", "Huber, Anna", "Nobody"]
    assert html.index("Ragger, Markus") < html.index("Huber, Anna") < html.index("Nobody")
    assert officer_client.get(reverse("federation:fide_list", args=[2026, 10])).status_code == 404
    assert officer_client.get(reverse("federation:fide_list", args=[2026, 13])).status_code == 404


def test_a_month_beyond_any_date_is_not_found(officer_client):
    # A year too large for a date raised OverflowError (a server error), not ValueError.
    assert officer_client.get("/federation/fide/lists/99999999999999999999-01/").status_code == 404
    assert officer_client.get("/federation/fide/lists/10000-01/").status_code == 404


def test_a_control_character_in_the_lookup_is_a_blank(officer_client):
    # PostgreSQL refuses a NUL byte in a query (a server error there); it is a blank, as a tab.
    _imported()
    response = officer_client.get(reverse("federation:fide_lookup"), {"q": "Ragger\x00Markus"})
    html = response.content.decode()
    assert response.status_code == 200 and "\x00" not in html
    assert 'value="Ragger Markus"' in html and "1600059" in html
