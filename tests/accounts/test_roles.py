"""Roles the site knows from `migrate` on, given on the Rollen page (never a group name typed), a
login linked to its member, and an invitation by e-mail with which a member sets his password."""

import re
from importlib import import_module

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core import mail

from clubrating.accounts.permissions import is_club_admin, is_official, is_rating_officer
from clubrating.accounts.services import RoleRefused, user_roles_set
from tests.factories import MemberFactory
from tests.language import speak

pytestmark = pytest.mark.django_db

ROLES_URL = "/accounts/roles/"


def test_the_three_roles_exist_after_migrate():
    # Run as `migrate` runs it (a browser test's flush may have emptied the table before).
    roles_create = import_module("clubrating.accounts.migrations.0001_roles").roles_create
    Group.objects.all().delete()
    roles_create(apps, None)
    assert sorted(Group.objects.values_list("name", flat=True)) == [
        "club administrators", "officials", "rating officers"]


@pytest.fixture
def admin_of_club(client):
    user = User.objects.create_user("obmann", password="pw-obmann-2026")
    user.groups.add(Group.objects.get_or_create(name=settings.CLUB_ADMINS_GROUP)[0])
    client.force_login(user)
    return user


def test_the_roles_page_is_for_club_administrators_only(client):
    player = User.objects.create_user("spieler", password="pw-spieler-2026")
    assert client.get(ROLES_URL).status_code == 302  # to the login page
    client.force_login(player)
    assert client.get(ROLES_URL).status_code == 403


def test_the_roles_are_named_in_german_and_given_by_ticking(client, admin_of_club):
    speak(client, "de-at")
    user = User.objects.create_user("tl", password="pw-tl-2026")
    page = client.get(ROLES_URL).content.decode()
    for label in ("Turnierleiter", "Wertungsreferent", "Vereinsadministrator"):
        assert label in page
    assert ">officials<" not in page  # the group's name is the checkbox's value only

    response = client.post(ROLES_URL, {"action": "roles", "user": user.pk,
                                       f"u{user.pk}-roles": [settings.OFFICIALS_GROUP]})

    assert response.status_code == 302
    user = User.objects.get(pk=user.pk)
    assert (is_official(user), is_rating_officer(user), is_club_admin(user)) == (True, False, False)


def test_a_role_not_known_is_refused_and_nothing_changes(client, admin_of_club):
    user = User.objects.create_user("tl", password="pw-tl-2026")

    client.post(ROLES_URL, {"action": "roles", "user": user.pk, f"u{user.pk}-roles": ["Turnierleiter"]})

    assert not user.groups.exists()
    with pytest.raises(RoleRefused):
        user_roles_set(user=user, roles=["Turnierleiter"], by=admin_of_club)


def test_a_club_administrator_keeps_his_own_role_and_cannot_change_a_superuser(admin_of_club):
    boss = User.objects.create_superuser("root", password="pw-root-2026")
    with pytest.raises(RoleRefused):
        user_roles_set(user=admin_of_club, roles=[], by=admin_of_club)
    with pytest.raises(RoleRefused):
        user_roles_set(user=boss, roles=[settings.OFFICIALS_GROUP], by=admin_of_club)
    assert is_club_admin(User.objects.get(pk=admin_of_club.pk))


def test_a_login_is_linked_to_its_member(client, admin_of_club):
    member = MemberFactory(last_name="Huber", first_name="Anna")
    user = User.objects.create_user("anna", password="pw-anna-2026")

    client.post(ROLES_URL, {"action": "link", "member": member.pk, f"l{member.pk}-user": user.pk})

    member.refresh_from_db()
    assert member.user_id == user.pk


def test_an_invitation_mails_a_link_with_which_the_member_sets_his_password(client, admin_of_club):
    speak(client, "de-at")
    member = MemberFactory(last_name="Huber", first_name="Anna", email="")

    response = client.post(ROLES_URL, {"action": "invite", "member": member.pk,
                                       f"m{member.pk}-email": "anna@example.org",
                                       f"m{member.pk}-roles": [settings.RATING_OFFICERS_GROUP]})

    assert response.status_code == 302
    user = User.objects.get(member=member)
    assert (user.username, user.email, user.has_usable_password()) == (
        "anna.huber", "anna@example.org", False)
    assert is_rating_officer(user)
    [message] = mail.outbox
    assert message.to == ["anna@example.org"]
    assert "Ihr Zugang" in message.subject
    link = re.search(r"https?://testserver(/accounts/password/reset/\S+)", message.body).group(1)
    client.logout()
    form = client.get(link, follow=True)
    assert form.status_code == 200
    password = "Schach-Matt-2026"
    client.post(form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password})
    assert User.objects.get(pk=user.pk).check_password(password)


def test_an_invitation_without_an_address_is_refused(client, admin_of_club):
    member = MemberFactory(email="")

    client.post(ROLES_URL, {"action": "invite", "member": member.pk, f"m{member.pk}-email": ""})

    assert not User.objects.filter(member=member).exists() and not mail.outbox
