"""Repeated wrong passwords lock the login, per username (and per address behind a trusted proxy), on the
site and the admin."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from clubrating.accounts.client_ip import client_ip

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
LOCKED = (
    "Zu viele fehlgeschlagene Anmeldeversuche: "
    "Nach 5 falschen Passwörtern ist die Anmeldung eine Zeit lang gesperrt."
)


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", email="anna@example.at", password="richtig-123")


def post_login(client, url, username, password, ip="10.0.0.1"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=ip)


def fail(client, url, username, times, ip="10.0.0.1"):
    for _ in range(times):
        assert post_login(client, url, username, "falsch", ip).status_code == 200


def test_settings_lock_after_five_failures_for_fifteen_minutes_by_username(settings):
    assert settings.AXES_ENABLED is True
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=15)
    assert settings.CLIENT_IP_HEADER == ""
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username"]
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_four_failures_do_not_lock_and_a_success_clears_them(client, anna):
    fail(client, LOGIN, "anna", 4)
    response = post_login(client, LOGIN, "anna", "richtig-123")
    assert response.status_code == 302 and response.url == reverse("home")
    assert AccessAttempt.objects.count() == 0


def test_fifth_failure_locks_even_the_right_password_out(client, anna):
    fail(client, LOGIN, "anna", 4)
    response = post_login(client, LOGIN, "anna", "falsch")
    assert response.status_code == 429
    response = post_login(client, LOGIN, "anna", "richtig-123")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    page = response.content.decode()
    assert "<h1 class=\"h3 mb-3\">Anmeldung gesperrt</h1>" in page
    assert LOCKED in page
    assert "Bitte versuchen Sie es in 15 Minuten wieder" in page


def test_lockout_page_in_english_when_chosen(client, anna, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    fail(client, LOGIN, "anna", 4)
    response = post_login(client, LOGIN, "anna", "falsch")
    assert response.status_code == 429
    assert "Too many failed login attempts: after 5 wrong passwords" in response.content.decode()


def test_username_is_locked_from_every_address(client, anna):
    for number in range(5):
        post_login(client, LOGIN, "anna", "falsch", ip=f"10.0.1.{number}")
    assert post_login(client, LOGIN, "anna", "richtig-123", ip="10.0.2.1").status_code == 429


def test_one_players_typos_do_not_lock_the_others_on_the_same_address(client, anna, django_user_model):
    """A tournament hall: everybody logs in through the same Wi-Fi address."""
    django_user_model.objects.create_user("bernd", password="bernd-pw-123")
    fail(client, LOGIN, "anna", 4, ip="10.0.3.3")
    assert post_login(client, LOGIN, "anna", "falsch", ip="10.0.3.3").status_code == 429
    assert post_login(client, LOGIN, "anna", "richtig-123", ip="10.0.3.3").status_code == 429
    response = post_login(client, LOGIN, "bernd", "bernd-pw-123", ip="10.0.3.3")
    assert response.status_code == 302 and response.url == reverse("home")


def test_without_a_trusted_proxy_many_usernames_from_one_address_lock_only_those_names(
        client, anna, django_user_model):
    django_user_model.objects.create_user("bernd", password="bernd-pw-123")
    for number in range(6):
        assert post_login(client, LOGIN, f"gast{number}", "falsch", ip="10.0.3.3").status_code == 200
    assert post_login(client, LOGIN, "bernd", "bernd-pw-123", ip="10.0.3.3").status_code == 302


def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(client, anna):
    """A visitor cannot pick an address: the lock follows the username whatever the header says,
    and the attempts are recorded under REMOTE_ADDR."""
    for number in range(5):
        client.post(LOGIN, {"username": "anna", "password": "falsch"}, REMOTE_ADDR="10.0.4.4",
                    HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.0.4.4"}
    response = client.post(LOGIN, {"username": "anna", "password": "richtig-123"}, REMOTE_ADDR="10.0.4.4",
                           HTTP_X_FORWARDED_FOR="203.0.113.50")
    assert response.status_code == 429


@override_settings(CLIENT_IP_HEADER="HTTP_X_FORWARDED_FOR",
                   AXES_LOCKOUT_PARAMETERS=["username", "ip_address"])
def test_behind_a_trusted_proxy_an_address_is_locked_for_every_username(client, anna, django_user_model):
    """Every request comes from the proxy (10.0.0.1); the visitor's address is the one it appended."""
    django_user_model.objects.create_user("bernd", password="bernd-pw-123")
    for number in range(5):
        client.post(LOGIN, {"username": f"gast{number}", "password": "falsch"}, REMOTE_ADDR="10.0.0.1",
                    HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.9"}
    locked = client.post(LOGIN, {"username": "bernd", "password": "bernd-pw-123"}, REMOTE_ADDR="10.0.0.1",
                         HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert locked.status_code == 429
    # Another visitor behind the same proxy is not affected.
    response = client.post(LOGIN, {"username": "bernd", "password": "bernd-pw-123"}, REMOTE_ADDR="10.0.0.1",
                           HTTP_X_FORWARDED_FOR="203.0.113.10")
    assert response.status_code == 302


def test_admin_login_is_locked_too(client, django_user_model):
    django_user_model.objects.create_superuser("chef", "chef@example.at", "chef-pw-123")
    fail(client, ADMIN_LOGIN, "chef", 4)
    assert post_login(client, ADMIN_LOGIN, "chef", "falsch").status_code == 429
    response = post_login(client, ADMIN_LOGIN, "chef", "chef-pw-123")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    # Failures on the admin login count for the site login as well.
    assert post_login(client, LOGIN, "chef", "chef-pw-123").status_code == 429


def test_axes_reset_unlocks(client, anna):
    fail(client, LOGIN, "anna", 4)
    post_login(client, LOGIN, "anna", "falsch")
    call_command("axes_reset", verbosity=0)
    assert AccessAttempt.objects.count() == 0
    assert post_login(client, LOGIN, "anna", "richtig-123").status_code == 302


def test_lock_ends_after_the_cool_off(client, anna):
    fail(client, LOGIN, "anna", 4)
    post_login(client, LOGIN, "anna", "falsch")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert post_login(client, LOGIN, "anna", "richtig-123").status_code == 302


def test_a_failure_during_the_lock_starts_the_cool_off_again(client, anna):
    fail(client, LOGIN, "anna", 4)
    post_login(client, LOGIN, "anna", "falsch")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14))
    assert post_login(client, LOGIN, "anna", "falsch").status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14))
    assert post_login(client, LOGIN, "anna", "richtig-123").status_code == 429


@override_settings(AXES_ENABLED=False)
def test_disabled_from_the_environment_setting(client, anna):
    fail(client, LOGIN, "anna", 6)
    assert post_login(client, LOGIN, "anna", "richtig-123").status_code == 302


def test_client_ip_is_remote_addr_unless_a_proxy_header_is_named(rf, settings):
    request = rf.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    settings.CLIENT_IP_HEADER = ""
    assert client_ip(request) == "192.0.2.1"
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    # The proxy appends the visitor's address; what comes before it is the visitor's own claim.
    assert client_ip(request) == "203.0.113.9"
    assert client_ip(rf.get("/", REMOTE_ADDR="192.0.2.1")) == "192.0.2.1"
