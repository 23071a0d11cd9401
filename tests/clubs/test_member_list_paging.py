"""The member list's pages: numbered to the last while the register is small, paged without a
total beyond ``COUNTED_MEMBERS`` (counting a federation's register read every member per page)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.clubs import views
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def members():
    club = ClubFactory(name="SK Paging")
    return MemberFactory.create_batch(55, club=club)


def rows(html: str) -> int:
    return len(re.findall(r'<tr class="(?:even|odd)">', html))


def page_links(html: str) -> list[str]:
    return re.findall(r'<a class="page-link" href="\?page=(\d+)">', html)


def test_a_small_register_is_numbered_to_its_last_page(admin_client, members):
    first = admin_client.get(reverse("clubs:member_list")).content.decode()
    last = admin_client.get(reverse("clubs:member_list"), {"page": 2}).content.decode()
    assert (rows(first), rows(last)) == (50, 5)
    assert page_links(first) == ["1", "2"]


def test_a_large_register_is_paged_without_counting_it(admin_client, members, monkeypatch):
    monkeypatch.setattr(views, "COUNTED_MEMBERS", 20)
    with CaptureQueriesContext(connection) as queries:
        first = admin_client.get(reverse("clubs:member_list")).content.decode()
    counts = [q["sql"] for q in queries if "COUNT(" in q["sql"].upper()]
    # One count, of at most 21 rows: never of the whole register.
    assert len(counts) == 1 and "LIMIT 21" in counts[0]
    assert rows(first) == 50
    assert page_links(first) == ["1", "2"]
    assert 'href="?page=2" class="page-link"' in first  # "next"
    last = admin_client.get(reverse("clubs:member_list"), {"page": 2}).content.decode()
    assert rows(last) == 5
    assert 'class="next page-item"' not in last


def test_a_search_beyond_the_count_still_finds_its_members(admin_client, members, monkeypatch):
    monkeypatch.setattr(views, "COUNTED_MEMBERS", 20)
    members[7].last_name = "Zwölfer"
    members[7].save(update_fields=["last_name"])
    html = admin_client.get(reverse("clubs:member_list"), {"q": "zwolfer"}).content.decode()
    assert rows(html) == 1 and f"Zwölfer, {members[7].first_name}" in html
