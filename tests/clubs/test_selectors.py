import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.clubs.selectors import home_club, home_club_remembered
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def test_home_club_is_the_club_marked_home_or_none():
    assert home_club() is None
    ClubFactory(name="SV Gast", is_home=False)
    own = ClubFactory(name="SK Heimat", is_home=True)
    assert home_club() == own


def test_home_club_is_read_once_inside_a_request_and_each_time_outside(django_assert_num_queries):
    own = ClubFactory(name="SK Heimat", is_home=True)
    with django_assert_num_queries(2):
        assert home_club() == own and home_club() == own
    with home_club_remembered(), django_assert_num_queries(1):
        assert [home_club() for _ in range(4)] == [own] * 4
    with django_assert_num_queries(1):  # the block is over: the next call reads again
        home_club()


def test_home_page_reads_the_own_club_once(client):
    ClubFactory(name="SK Heimat", is_home=True)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    club_reads = [q["sql"] for q in queries.captured_queries if '"clubs_club"' in q["sql"]
                  and "is_home" in q["sql"]]
    assert len(club_reads) == 1, club_reads
