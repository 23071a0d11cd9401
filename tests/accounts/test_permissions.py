"""The shared permission helpers: roles, visitor settings, decorators."""

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, Group, User
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory

from clubrating.accounts.permissions import (
    can_view_ratings,
    can_view_tournaments,
    is_official,
    is_rating_officer,
    member_page_allowed,
    official_required,
    public_ratings_required,
    public_tournaments_required,
    rating_officer_required,
)
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db


def user_in(*groups, **extra):
    user = User.objects.create_user(f"u{User.objects.count()}", **extra)
    for name in groups:
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    return user


def ok(request):
    return HttpResponse("ok")


def call(decorator, user):
    request = RequestFactory().get("/protected/")
    request.user = user
    return decorator(ok)(request)


def test_roles():
    official = user_in(settings.OFFICIALS_GROUP)
    officer = user_in(settings.RATING_OFFICERS_GROUP)
    admin = user_in(is_superuser=True)
    plain = user_in()
    assert [is_official(u) for u in (official, officer, admin, plain, AnonymousUser())] == [
        True, False, True, False, False]
    assert [is_rating_officer(u) for u in (official, officer, admin, plain, AnonymousUser())] == [
        False, True, True, False, False]


def test_an_inactive_superuser_has_no_role():
    assert not is_official(user_in(is_superuser=True, is_active=False))


@pytest.mark.parametrize("decorator", [official_required, rating_officer_required])
def test_role_decorators(decorator):
    anonymous = call(decorator, AnonymousUser())
    assert anonymous.status_code == 302
    assert anonymous.url == "/accounts/login/?next=/protected/"
    with pytest.raises(PermissionDenied):
        call(decorator, user_in())
    assert call(decorator, user_in(is_superuser=True)).content == b"ok"


def test_official_decorator_lets_officials_in():
    assert call(official_required, user_in(settings.OFFICIALS_GROUP)).content == b"ok"
    with pytest.raises(PermissionDenied):
        call(official_required, user_in(settings.RATING_OFFICERS_GROUP))


@pytest.mark.parametrize(("flag", "decorator", "check"), [
    ("public_tournaments", public_tournaments_required, can_view_tournaments),
    ("public_ratings", public_ratings_required, can_view_ratings),
])
def test_visitor_settings_of_the_home_club(flag, decorator, check):
    club = ClubFactory(is_home=True, **{flag: False})
    assert call(decorator, AnonymousUser()).status_code == 302
    assert not check(AnonymousUser())
    assert call(decorator, user_in()).content == b"ok"
    setattr(club, flag, True)
    club.save()
    assert call(decorator, AnonymousUser()).content == b"ok"
    assert check(AnonymousUser())


def test_without_a_home_club_the_public_default_applies():
    assert can_view_tournaments(AnonymousUser()) and can_view_ratings(AnonymousUser())


def test_member_pages():
    ClubFactory(is_home=True, public_ratings=False)
    owner = user_in()
    member = MemberFactory(user=owner)
    assert member_page_allowed(owner, member)
    assert not member_page_allowed(user_in(), member)
    assert not member_page_allowed(AnonymousUser(), member)
    assert member_page_allowed(user_in(settings.OFFICIALS_GROUP), member)
    assert member_page_allowed(user_in(settings.RATING_OFFICERS_GROUP), member)
    assert member_page_allowed(user_in(is_staff=True), member)


def test_member_pages_are_public_with_public_ratings():
    ClubFactory(is_home=True, public_ratings=True)
    assert member_page_allowed(AnonymousUser(), MemberFactory())

