"""Password change for logged-in users and password reset by e-mail."""

import re

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.urls import reverse

from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user(
        "anna", email="anna@example.at", password="altes-Passwort-1", first_name="Anna", last_name="Berger"
    )


def logs_in(client, username, password, ip="10.0.0.1") -> bool:
    response = client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_urls():
    assert reverse("password_change") == "/accounts/password/change/"
    assert reverse("password_reset") == "/accounts/password/reset/"
    assert reverse("password_reset_complete") == "/accounts/password/reset/complete/"


def test_user_menu_links_to_password_change(client, anna):
    client.force_login(anna)
    page = client.get(reverse("home")).content.decode()
    assert '<a class="dropdown-item" href="/accounts/password/change/">Passwort ändern</a>' in page


def test_login_page_links_to_password_reset(client):
    page = client.get(reverse("login")).content.decode()
    assert '<a href="/accounts/password/reset/">Passwort vergessen?</a>' in page


def test_password_change_needs_a_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/accounts/password/change/"


def test_password_change_flow(client, anna):
    client.force_login(anna)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200
    assert "<h1 class=\"h3 mb-3\">Passwort ändern</h1>" in page.content.decode()
    wrong = client.post(reverse("password_change"), {
        "old_password": "falsch", "new_password1": "neues-Passwort-2", "new_password2": "neues-Passwort-2",
    })
    assert wrong.status_code == 200
    assert wrong.context["form"].errors["old_password"]
    response = client.post(reverse("password_change"), {
        "old_password": "altes-Passwort-1",
        "new_password1": "neues-Passwort-2",
        "new_password2": "neues-Passwort-2",
    }, follow=True)
    assert response.redirect_chain == [("/accounts/password/change/done/", 302)]
    assert "Ihr Passwort wurde geändert." in response.content.decode()
    # The session survives the change; the old password no longer works, the new one does.
    assert client.get(reverse("password_change")).status_code == 200
    client.logout()
    assert not logs_in(client, "anna", "altes-Passwort-1")
    assert logs_in(client, "anna", "neues-Passwort-2")


def _reset_link(client, email: str) -> str:
    response = client.post(reverse("password_reset"), {"email": email}, follow=True)
    assert response.redirect_chain == [("/accounts/password/reset/done/", 302)]
    assert "Wenn es ein Konto mit dieser E-Mail-Adresse gibt" in response.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [email]
    assert message.subject == "Neues Passwort für testserver"
    assert message.body.startswith("Hallo Anna Berger,\n\njemand (hoffentlich Sie) hat verlangt")
    assert "Ihr Benutzername: anna" in message.body
    links = re.findall(r"http://testserver(/accounts/password/reset/\S+/)", message.body)
    assert len(links) == 1
    return links[0]


def test_password_reset_flow(client, anna):
    page = client.get(reverse("password_reset")).content.decode()
    assert "<h1 class=\"h3 mb-3\">Passwort zurücksetzen</h1>" in page
    link = _reset_link(client, "anna@example.at")
    # Django moves the token into the session and redirects to a URL without it.
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"] is True
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": "neues-Passwort-2", "new_password2": "neues-Passwort-2"},
                       follow=True)
    assert done.redirect_chain == [("/accounts/password/reset/complete/", 302)]
    assert "Ihr neues Passwort ist gesetzt." in done.content.decode()
    assert not logs_in(client, "anna", "altes-Passwort-1")
    assert logs_in(client, "anna", "neues-Passwort-2")
    # The link works once only.
    client.logout()
    again = client.get(link, follow=True)
    assert again.context["validlink"] is False
    assert "Dieser Link ist nicht mehr gültig" in again.content.decode()


def test_password_reset_mail_names_the_own_club(client, anna):
    ClubFactory(name="Schachklub Donaustadt", is_home=True)
    client.post(reverse("password_reset"), {"email": "anna@example.at"})
    assert mail.outbox[0].subject == "Neues Passwort für Schachklub Donaustadt"
    assert "für Ihr Konto bei Schachklub Donaustadt ein neues Passwort" in mail.outbox[0].body


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, anna):
    response = client.post(reverse("password_reset"), {"email": "niemand@example.at"}, follow=True)
    assert response.redirect_chain == [("/accounts/password/reset/done/", 302)]
    assert mail.outbox == []


def test_password_reset_lifts_the_lockout(client, anna):
    for _ in range(5):
        client.post(reverse("login"), {"username": "anna", "password": "falsch"}, REMOTE_ADDR="10.0.0.9")
    assert client.post(reverse("login"), {"username": "anna", "password": "altes-Passwort-1"},
                       REMOTE_ADDR="10.0.0.9").status_code == 429
    link = _reset_link(client, "anna@example.at")
    set_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(set_url, {"new_password1": "neues-Passwort-2", "new_password2": "neues-Passwort-2"})
    assert AccessAttempt.objects.filter(username="anna").count() == 0
    assert logs_in(client, "anna", "neues-Passwort-2", ip="10.0.0.9")


def test_admin_login_links_to_password_reset(client):
    page = client.get("/admin/login/").content.decode()
    assert 'href="/admin/password-reset/"' in page
    response = client.post("/admin/password-reset/", {"email": "niemand@example.at"})
    assert response.status_code == 302 and response.url == "/accounts/password/reset/done/"
