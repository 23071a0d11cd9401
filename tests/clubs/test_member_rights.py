"""The member's rights on the pages and the command line: his data as a page and a JSON file,
erasure by a rating officer, and the retention rule (erase_inactive_accounts)."""

import datetime
import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse

from clubrating.clubs.models import Erasure, Member
from ratings.models import ListEntry
from tests.language import speak

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_user(rated_club):
    user = User.objects.create_user("anna", password="pw")
    rated_club["anna"].user = user
    rated_club["anna"].save()
    return user


def data_url(member, fmt=""):
    return reverse("clubs:member_data", args=[member.pk]) + (f"?format={fmt}" if fmt else "")


def test_member_data_for_himself_and_officials_only(client, rated_club, anna_user, plain_user, official):
    anna = rated_club["anna"]
    response = client.get(data_url(anna))
    assert response.status_code == 302
    client.force_login(plain_user)
    assert client.get(data_url(anna)).status_code == 403
    assert client.get(data_url(anna, "json")).status_code == 403
    for user in (anna_user, official):
        client.force_login(user)
        html = client.get(data_url(anna)).content.decode()
        assert "Gespeicherte Daten über Berger, Anna" in html
        assert "2 Partien" in html and "2 Einträge in veröffentlichten Listen" in html


def test_member_data_as_json_file(client, rated_club, anna_user):
    anna = rated_club["anna"]
    client.force_login(anna_user)
    response = client.get(data_url(anna, "json"))
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="clubrating-mitgliedsdaten-{anna.pk}.json"')
    assert response["Cache-Control"] == "private, no-store"
    data = json.loads(response.content)
    assert data["format"] == "clubrating-member-data" and data["member"]["last_name"] == "Berger"
    assert data["account"]["username"] == "anna"
    speak(client, "en")
    assert client.get(data_url(anna, "json"))["Content-Disposition"] == (
        f'attachment; filename="clubrating-member-data-{anna.pk}.json"')


def test_erasure_by_a_rating_officer_after_typing_the_name(client, rated_club, official, officer):
    anna = rated_club["anna"]
    url = reverse("clubs:member_erase", args=[anna.pk])
    client.force_login(official)
    assert client.get(url).status_code == 403
    assert client.post(url, {"confirm": "Berger, Anna"}).status_code == 403
    client.force_login(officer)
    assert "Berger, Anna endgültig löschen" in client.get(url).content.decode() or \
        "Berger, Anna löschen" in client.get(url).content.decode()
    response = client.post(url, {"confirm": "Berger Anna"})
    assert response.status_code == 400
    assert "Geben Sie den Namen genau wie angezeigt ein" in response.content.decode()
    assert Member.objects.get(pk=anna.pk).erased_on is None
    entries_before = list(ListEntry.objects.filter(member=anna).values_list("rating", "rank", "change"))
    response = client.post(url, {"confirm": "Berger,  Anna"}, follow=True)
    assert f"Anonym, {anna.pk}" in response.content.decode()
    assert Member.objects.get(pk=anna.pk).full_name == f"Anonym, {anna.pk}"
    entries_after = list(ListEntry.objects.filter(member=anna).values_list("rating", "rank", "change"))
    assert entries_after == entries_before
    assert Erasure.objects.get().erased_by == officer
    # The published list shows the pseudonym.
    page = client.get(reverse("ratings:list", args=[rated_club["list"].pk])).content.decode()
    assert f"Anonym, {anna.pk}" in page and "Berger" not in page
    # A second erasure is refused with a note, and changes nothing.
    response = client.post(url, {"confirm": f"Anonym, {anna.pk}"}, follow=True)
    assert "Dieses Mitglied wurde am" in response.content.decode()
    assert Erasure.objects.count() == 1


def test_erasure_refusal_in_english(client, rated_club, officer):
    anna = rated_club["anna"]
    client.force_login(officer)
    speak(client, "en")
    response = client.post(reverse("clubs:member_erase", args=[anna.pk]), {"confirm": "x"})
    assert "Type the member's name exactly as shown to confirm the erasure; nothing was erased." in (
        response.content.decode().replace("&#x27;", "'"))


def test_retention_command(rated_club):
    anna, bernd = rated_club["anna"], rated_club["bernd"]
    old = User.objects.create_user("anna", password="pw")
    User.objects.filter(pk=old.pk).update(last_login=datetime.datetime(2019, 1, 1, tzinfo=datetime.UTC),
                                          date_joined=datetime.datetime(2018, 1, 1, tzinfo=datetime.UTC))
    recent = User.objects.create_user("bernd", password="pw")
    anna.user, bernd.user = old, recent
    anna.save()
    bernd.save()
    out = StringIO()
    call_command("erase_inactive_accounts", stdout=out)
    assert "nichts zu löschen" in out.getvalue()
    out = StringIO()
    call_command("erase_inactive_accounts", "--years", "5", stdout=out)
    assert f"{anna.pk}\tBerger, Anna" in out.getvalue() and "Huber" not in out.getvalue()
    assert Member.objects.get(pk=anna.pk).erased_on is None  # without --apply: a list only
    with override_settings(ACCOUNT_RETENTION_YEARS=5):
        call_command("erase_inactive_accounts", "--apply", stdout=StringIO())
        call_command("erase_inactive_accounts", "--apply", stdout=StringIO())  # twice: nothing more
    assert Member.objects.get(pk=anna.pk).full_name == f"Anonym, {anna.pk}"
    assert Member.objects.get(pk=bernd.pk).erased_on is None
    assert Erasure.objects.get().cause == "retention"
    with pytest.raises(CommandError, match="0 oder mehr"):
        call_command("erase_inactive_accounts", "--years", "-1")
