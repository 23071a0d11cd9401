"""A rating list's pages are counted on the list's own table: the paginator's count of an
unfiltered list reads no member or club (``ratings.lists.faces.ListSource.count``), so that a
federation's 100,000 rows cost an index's entries, not a join of two tables."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubrating.clubs.models import Club
from ratings.services.lists import EntryData, list_publish
from tests.factories import MemberFactory
from tests.ratings.views.test_lists import table_rows

pytestmark = pytest.mark.django_db


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


def test_an_unfiltered_published_list_is_counted_without_members_or_clubs(client, long_list):
    response, counts = _get(client, reverse("ratings:list", args=[long_list.pk]), {"page": 2})

    assert [row[0] for row in table_rows(response)] == [str(n) for n in range(101, 136)]
    assert len(counts) == 1
    assert re.findall(r'FROM "(\w+)"', counts[0]) == ["ratings_listentry"]
    assert "JOIN" not in counts[0]


def test_a_filtered_published_list_counts_the_rows_the_filter_keeps(client, long_list):
    response, counts = _get(client, reverse("ratings:list", args=[long_list.pk]),
                            {"club": "SV Gäste", "page": 2})

    rows = table_rows(response)
    assert len(rows) == 30 and rows[-1][1].startswith("Zeh000,")
    assert len(counts) == 1 and "clubs_club" in counts[0]
    assert "?club=SV+G%C3%A4ste&amp;page=1" in response.content.decode()
    assert "page=3" not in response.content.decode()


def test_an_unfiltered_live_list_is_counted_on_the_pools_members_alone(client, rated_club):
    response, counts = _get(client, reverse("ratings:live", args=[rated_club["pool"].pk]))

    assert [row[1] for row in table_rows(response)] == ["Huber, Bernd", "Berger, Anna", "Moser, Clara",
                                                        "Alt, Dora"]
    assert len(counts) == 1
    assert re.findall(r'FROM "(\w+)"', counts[0]) == ["ratings_poolmember"]
    assert "JOIN" not in counts[0]
