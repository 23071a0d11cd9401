"""The privacy template tags: a member's link worked out once per request."""

from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.test import RequestFactory

from clubrating.clubs.models import Member
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db


def test_a_member_named_many_times_on_a_page_is_linked_once_per_request():
    ClubFactory(is_home=True, public_ratings=True)
    member = MemberFactory(last_name="Adler", first_name="Max")
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    template = Template("{% load privacy %}{% member_link m %}|{% member_link m %}|{% member_link m 'Max' %}")

    with mock.patch.object(Member, "get_absolute_url", autospec=True, return_value="/m/1/") as url:
        html = template.render(Context({"m": member, "request": request}))

    assert html == '<a href="/m/1/">Adler, Max</a>|<a href="/m/1/">Adler, Max</a>|<a href="/m/1/">Max</a>'
    assert url.call_count == 2  # once for the name, once for the other label
