"""Members added and changed in the browser by the register's keepers, with a history that names
every changed field (values of personal data are not kept), and duplicates by name and birth
date refused unless the official says it is another person."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.urls import reverse

from clubrating.clubs.models import Member, MemberChange
from tests.factories import GameFactory, MemberFactory
from tests.language import speak

pytestmark = pytest.mark.django_db

ADD = "/members/new/"


def values(**changes):
    data = {"last_name": "Huber", "first_name": "Anna", "sex": "f", "birth_date": "1990-05-17",
            "national_id": "12345", "fide_rating": "2100", "active": "on"}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_an_official_adds_a_member_of_the_own_club(client, official, home_club):
    client.force_login(official)

    response = client.post(ADD, values(club=home_club.pk))

    anna = Member.objects.get(last_name="Huber")
    assert response.status_code == 302 and response.url == anna.get_absolute_url()
    assert (anna.club, anna.birth_date, anna.national_id, anna.fide_rating) == (
        home_club, datetime.date(1990, 5, 17), "12345", 2100)
    [change] = MemberChange.objects.filter(member=anna)
    assert change.created and change.changed_by == official
    assert {"field": "birth_date", "old": None, "new": None} in change.fields
    assert {"field": "national_id", "old": None, "new": "12345"} in change.fields


def test_a_duplicate_by_name_and_birth_date_is_refused_and_shown(client, official, home_club):
    twin = MemberFactory(last_name="Huber", first_name="ANNA", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None)
    client.force_login(official)
    speak(client, "de-at")

    response = client.post(ADD, values(first_name="Anna"))

    assert response.status_code == 200
    assert Member.objects.filter(last_name="Huber").count() == 1
    page = response.content.decode()
    assert "Bereits ein Mitglied mit diesem Namen und Geburtsdatum" in page
    assert twin.get_absolute_url() in page
    client.post(ADD, values(first_name="Anna", allow_duplicate="on"))
    assert Member.objects.filter(last_name="Huber").count() == 2


def test_a_change_and_a_deactivation_are_in_the_history(client, official, home_club):
    anna = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None, national_id="12345", club=home_club, email="a@example.org")
    client.force_login(official)
    url = reverse("clubs:member_edit", args=[anna.pk])

    client.post(url, values(first_name="Anna", national_id="54321", email="neu@example.org",
                            club=home_club.pk, active=None, fide_rating=None))

    anna.refresh_from_db()
    assert (anna.national_id, anna.email, anna.active) == ("54321", "neu@example.org", False)
    [change] = MemberChange.objects.filter(member=anna)
    assert change.fields == [
        {"field": "sex", "old": None, "new": None},
        {"field": "national_id", "old": "12345", "new": "54321"},
        {"field": "active", "old": "True", "new": "False"},
        {"field": "email", "old": None, "new": None},
    ]
    speak(client, "de-at")
    page = client.get(url).content.decode()
    assert "Verlauf der Änderungen" in page and "12345 → 54321" in page


def test_visitors_and_plain_members_cannot_add_members(client, plain_user, home_club):
    assert client.get(ADD).status_code == 302
    client.force_login(plain_user)
    assert client.post(ADD, values()).status_code == 403
    assert not Member.objects.filter(last_name="Huber").exists()


def test_a_duplicate_without_games_is_merged_and_its_values_kept(client, official, home_club):
    anna = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None, club=home_club, national_id="", fide_id=None)
    twin = MemberFactory(last_name="HUBER", first_name="anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None, national_id="12345", fide_id=1601001, email="anna@example.org")
    client.force_login(official)
    speak(client, "de-at")
    edit = client.get(reverse("clubs:member_edit", args=[anna.pk])).content.decode()
    assert "Duplikate: gleicher Name und Geburtsdatum" in edit and twin.get_absolute_url() in edit

    client.post(reverse("clubs:member_merge", args=[anna.pk]), {"duplicate": twin.pk})

    assert not Member.objects.filter(pk=twin.pk).exists()
    anna.refresh_from_db()
    assert (anna.national_id, anna.fide_id, anna.email, anna.club) == (
        "12345", 1601001, "anna@example.org", home_club)
    assert MemberChange.objects.filter(member=anna).first().fields == [
        {"field": "merged", "old": str(twin.pk), "new": None}]


def test_a_duplicate_with_games_is_merged_and_his_games_move(client, official, home_club):
    anna = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None)
    twin = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None)
    game = GameFactory(white=twin)
    client.force_login(official)
    speak(client, "de-at")

    response = client.post(reverse("clubs:member_merge", args=[anna.pk]), {"duplicate": twin.pk},
                           follow=True)

    assert not Member.objects.filter(pk=twin.pk).exists()
    game.refresh_from_db()
    assert game.white == anna
    assert "Das Duplikat ist mit Huber, Anna zusammengeführt." in response.content.decode()


def test_a_duplicate_who_played_him_is_not_merged_and_says_why(client, official, home_club):
    anna = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None)
    twin = MemberFactory(last_name="Huber", first_name="Anna", birth_date=datetime.date(1990, 5, 17),
                         birth_year=None)
    GameFactory(white=twin, black=anna)
    client.force_login(official)
    speak(client, "de-at")

    response = client.post(reverse("clubs:member_merge", args=[anna.pk]), {"duplicate": twin.pk},
                           follow=True)

    assert Member.objects.filter(pk=twin.pk).exists()
    assert "kann nicht zusammengeführt werden: Sie haben gegeneinander gespielt" in response.content.decode()


def test_members_of_other_names_are_not_merged(client, official, home_club):
    anna, bernd = MemberFactory(last_name="Huber"), MemberFactory(last_name="Gruber")
    client.force_login(official)

    client.post(reverse("clubs:member_merge", args=[anna.pk]), {"duplicate": bernd.pk})

    assert Member.objects.filter(pk=bernd.pk).exists()


def test_a_club_administrator_keeps_the_register_too(client, home_club):
    admin = User.objects.create_user("obmann", password="pw-obmann-2026")
    admin.groups.add(Group.objects.get_or_create(name=settings.CLUB_ADMINS_GROUP)[0])
    client.force_login(admin)

    response = client.post(ADD, values(club=home_club.pk))

    assert response.status_code == 302 and Member.objects.filter(last_name="Huber").count() == 1
