"""A rating list's pages are counted from its ranks: the paginator's count of an unfiltered list
is its last row's rank, read on an index (``ratings.lists.faces.ListSource.count``), so that a
federation's 100,000 rows are not counted on every cold page; a filtered list counts what the
filter keeps."""


import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.clubs.models import Club
from ratings.models import PoolMember
from ratings.services.lists import EntryData, list_publish
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, publish_start_list
from tests.ratings.views.test_lists import table_rows

pytestmark = pytest.mark.django_db


# Every test here reads the rated club as built: it is built once for the module and each test runs
# in a savepoint with its own instances (tests/ratings/views/conftest.py).
@pytest.fixture
def rated_club(rated_club_shared):
    return rated_club_shared


def _get(client, url, params=None):
    """The response and the SQL of its counts."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
    assert response.status_code == 200
    return response, [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"].upper()]


@pytest.fixture
def long_list(rated_club):
    """130 members of the guests' club and 5 of another club in a list of their own."""
    pool = rated_club["pool"]
    guests = Club.objects.get(name="SV Gäste")
    elsewhere = Club.objects.create(name="SK Anderswo")
    members = [MemberFactory(club=guests, last_name=f"Zeh{i:03d}") for i in range(130)]
    members += [MemberFactory(club=elsewhere, last_name=f"Ort{i}") for i in range(5)]
    return list_publish(pool=pool, entries={m.pk: EntryData(rating=1000 + i) for i, m in enumerate(members)},
                        kind="start", valid_from=pool.start_date)


def test_an_unfiltered_published_list_is_counted_from_its_last_rank(client, long_list):
    url = reverse("ratings:list", args=[long_list.pk])
    response, counts = _get(client, url, {"page": 2})

    assert [row[0] for row in table_rows(response)] == [str(n) for n in range(101, 136)]
    assert counts == []
    first, counts = _get(client, url)
    assert len(table_rows(first)) == 100 and counts == []
    assert "?page=2" in first.content.decode() and "page=3" not in first.content.decode()


def test_a_filtered_published_list_counts_the_rows_the_filter_keeps(client, long_list):
    response, counts = _get(client, reverse("ratings:list", args=[long_list.pk]),
                            {"club": "SV Gäste", "page": 2})

    rows = table_rows(response)
    assert len(rows) == 30 and rows[-1][1].startswith("Zeh000,")
    assert len(counts) == 1 and "clubs_club" in counts[0]
    assert "?club=SV+G%C3%A4ste&amp;page=1" in response.content.decode()
    assert "page=3" not in response.content.decode()


def test_an_unfiltered_live_list_is_counted_from_its_kept_ranks(client, rated_club):
    response, counts = _get(client, reverse("ratings:live", args=[rated_club["pool"].pk]))

    assert [row[1] for row in table_rows(response)] == ["Huber, Bernd", "Berger, Anna", "Moser, Clara",
                                                        "Alt, Dora"]
    assert counts == []


def test_a_live_list_of_more_than_a_page_has_as_many_pages_as_rows(client, rated_club):
    pool = make_pool(name="Lang", start=datetime.date(2026, 1, 1))
    members = [MemberFactory(club=None, last_name=f"Zeh{i:03d}") for i in range(130)]
    publish_start_list(pool, {m: (1000 + i, 10) for i, m in enumerate(members)})
    url = reverse("ratings:live", args=[pool.pk])

    response, counts = _get(client, url, {"page": 2})

    assert PoolMember.objects.filter(pool=pool, live_rating__isnull=False).count() == 130
    assert [row[0] for row in table_rows(response)] == [str(n) for n in range(101, 131)]
    assert table_rows(response)[-1][1].startswith("Zeh000,")
    assert counts == []
    assert "page=3" not in client.get(url).content.decode()


@pytest.mark.db_specific
def test_the_live_list_by_change_reads_its_page_in_the_order_of_its_index(client, rated_club):
    """The order by change (biggest gains first) is the index's (PostgreSQL: with sorting and
    sequential scans ruled out, the page's keys still come from ``poolmember_live_change_order``,
    so a federation's page reads its 100 rows, not the pool); on either database the rows come
    in that order."""
    pool = rated_club["pool"]
    url = reverse("ratings:live", args=[pool.pk])

    rows = table_rows(client.get(url, {"sort": "-change"}))

    assert [(row[1], row[5]) for row in rows] == [
        ("Berger, Anna", "+8"), ("Moser, Clara", "−9"), ("Huber, Bernd", ""), ("Alt, Dora", "")]
    if connection.vendor == "postgresql":
        from django.http import QueryDict

        from ratings.lists.faces import list_filters, list_table, live_source

        query = QueryDict("sort=-change")
        table = list_table(live_source(pool.pk), list_filters(query), query)
        table.paginate(per_page=100)
        keys = table.data.data.values_list("pk", flat=True)[:100]
        sql, params = keys.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_sort = off")
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "poolmember_live_change_order" in plan
        # Read in the index's order: at most the ties sorted (by rank), never the pool.
        assert not [line for line in plan.splitlines() if line.strip().lstrip("-> ").startswith("Sort  (")]
