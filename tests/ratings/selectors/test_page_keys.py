"""The keys of a rating list's page (``ratings.selectors.page_keys``): the same rows in the same
order as the page itself, read without joining the members where the order does not need them."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.selectors import live_rows, page_keys, published_rows
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, publish_start_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def plist():
    pool = make_pool(start=datetime.date(2025, 1, 1))
    # Equal ratings in pairs: the order by rating needs the names to break the ties.
    members = [MemberFactory(last_name=f"Zeh{i:02d}", first_name="A") for i in range(30)]
    publish_start_list(pool, {m: 1500 + i // 2 for i, m in enumerate(members)})
    return pool.lists.get()


def _keys_sql(page) -> tuple[list[int], str]:
    with CaptureQueriesContext(connection) as queries:
        keys = page_keys(page)
    return keys, queries.captured_queries[0]["sql"]


def test_a_page_in_rank_order_is_read_from_the_list_alone(plist):
    rows = published_rows(plist).order_by("rank")
    keys, sql = _keys_sql(rows[10:20])
    assert keys == [row.pk for row in rows[10:20]]
    assert [row.member.last_name for row in rows[10:20]] == [
        "Zeh18", "Zeh19", "Zeh16", "Zeh17", "Zeh14", "Zeh15", "Zeh12", "Zeh13", "Zeh10", "Zeh11"]
    assert "INNER JOIN" not in sql


def test_a_page_in_name_order_keeps_the_members_joined(plist):
    rows = published_rows(plist).order_by("-member__last_name")
    keys, sql = _keys_sql(rows[5:8])
    assert keys == [row.pk for row in rows[5:8]]
    assert [row.member.last_name for row in rows[5:8]] == ["Zeh24", "Zeh23", "Zeh22"]
    assert 'INNER JOIN "clubs_member"' in sql


def test_a_live_page_by_rating_breaks_ties_by_name(plist):
    rows = live_rows(plist.pool).order_by("-live_rating", "member__last_name", "member_id")
    keys, _sql = _keys_sql(rows[0:4])
    assert keys == [row.pk for row in rows[0:4]]
    assert [row.member.last_name for row in rows[0:4]] == ["Zeh28", "Zeh29", "Zeh26", "Zeh27"]
