"""The member's own e-mail opt-in on his member page (clubs.views.member_notifications)."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import ClubFactory, MemberFactory
from tests.language import speak

pytestmark = pytest.mark.django_db


@pytest.fixture
def eva():
    club = ClubFactory(name="Schachklub Heimat", is_home=True, public_ratings=True)
    return MemberFactory(first_name="Eva", last_name="Egger", club=club, email="eva@example.at",
                         user=User.objects.create_user("eva", password="pw-eva"))


def test_member_turns_the_emails_on_and_off(client, eva):
    url = reverse("clubs:member_notifications", args=[eva.pk])
    client.force_login(eva.user)
    page = speak(client, "de-at").get(eva.get_absolute_url()).content.decode()
    assert 'id="notify-form"' in page and "E-Mails an mich senden" in page
    response = client.post(url, {"notify": "1"}, follow=True)
    assert ("Sie bekommen eine E-Mail, wenn Ihre nächste Runde ausgelost ist und wenn eine Anmeldung "
            "bestätigt wird.") in response.content.decode()
    eva.refresh_from_db()
    assert eva.notify_by_email is True
    assert "Keine E-Mails mehr" in response.content.decode()
    response = speak(client, "en").post(url, {"notify": "0"}, follow=True)
    assert "You will get no more e-mails from tournaments." in response.content.decode()
    eva.refresh_from_db()
    assert eva.notify_by_email is False


def test_only_the_member_himself_may_switch(client, eva):
    url = reverse("clubs:member_notifications", args=[eva.pk])
    response = client.post(url, {"notify": "1"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(User.objects.create_user("otto", password="pw-otto"))
    assert client.post(url, {"notify": "1"}).status_code == 403
    assert client.get(url).status_code == 405
    other_page = client.get(eva.get_absolute_url()).content.decode()
    assert 'id="notify-form"' not in other_page
    eva.refresh_from_db()
    assert eva.notify_by_email is False


def test_without_an_address_nothing_is_switched_on(client, eva):
    eva.email = ""
    eva.save()
    client.force_login(eva.user)
    response = speak(client, "de-at").post(reverse("clubs:member_notifications", args=[eva.pk]),
                                           {"notify": "1"}, follow=True)
    assert ("Für Sie ist keine E-Mail-Adresse eingetragen; bitten Sie einen Funktionär, sie einzutragen."
            in response.content.decode())
    eva.refresh_from_db()
    assert eva.notify_by_email is False
