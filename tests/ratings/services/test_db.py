"""``ratings.services.db``: set-based writes, the same on PostgreSQL (COPY, temporary table,
arrays) and SQLite."""

import pytest

from ratings.models import PoolMember
from ratings.services import db
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool

pytestmark = pytest.mark.django_db

COLUMNS = ("rating", "games_count", "reached_2400", "live_rating")


@pytest.mark.parametrize("through_copy", [True, False])
def test_rows_update_writes_each_row_whatever_the_path(monkeypatch, through_copy):
    # From COPY_FROM rows PostgreSQL copies them into a temporary table (no ANALYZE: the join is
    # planned from its size), below it sends one array per column.
    monkeypatch.setattr(db, "COPY_FROM", 1 if through_copy else 10**6)
    pool = make_pool()
    members = [MemberFactory() for _ in range(3)]
    for m in members:
        PoolMember.objects.create(pool=pool, member=m, rating=1500, games_count=5)
    # Booleans as truth values of any kind (0/1 as SQLite gives them back) and a NULL.
    rows = [(1600.5, 7, 1, None, pool.pk, members[0].pk), (None, 0, 0, 1450.0, pool.pk, members[1].pk)]
    db.rows_update(PoolMember, ("pool_id", "member_id"), COLUMNS, rows)
    stored = {
        m: values for m, *values in PoolMember.objects.filter(pool=pool).values_list("member_id", *COLUMNS)
    }
    assert stored == {
        members[0].pk: [1600.5, 7, True, None],
        members[1].pk: [None, 0, False, 1450.0],
        members[2].pk: [1500, 5, False, None],
    }
