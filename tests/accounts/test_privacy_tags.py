"""The privacy template tags: a member's link worked out once per request."""

from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db


def test_a_member_named_many_times_on_a_page_is_linked_once_per_request():
    ClubFactory(is_home=True, public_ratings=True)
    member = MemberFactory(last_name="Adler", first_name="Max")
    other = MemberFactory(last_name="Berg", first_name="Eva")
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    template = Template("{% load privacy %}{% member_link m %}|{% member_link m %}|{% member_link m 'Max' %}"
                        "|{% member_link o %}")

    with mock.patch("clubrating.clubs.models.reverse", wraps=reverse) as reversed_:
        html = template.render(Context({"m": member, "o": other, "request": request}))

    url, other_url = f"/members/{member.pk}/", f"/members/{other.pk}/"
    assert (url, other_url) == (member.get_absolute_url(), other.get_absolute_url())
    assert html == (f'<a href="{url}">Adler, Max</a>|<a href="{url}">Adler, Max</a>|<a href="{url}">Max</a>'
                    f'|<a href="{other_url}">Berg, Eva</a>')
    # The member page's address is reversed once for the page, not once per member.
    assert reversed_.call_count == 1
