"""The start page and the tournament list read the same rows whatever the size of the pool: each
of their reads is run again under EXPLAIN, with 50 and then 500 rated members (the planner
knowing both sizes), and the rows its table scans touch are compared. (Counting the rated
members used to read every one of them.)"""

import datetime
import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubrating.tournaments.models import Result
from ratings.models import PoolMember
from ratings.services.live_ranks import live_ranks_renumber
from tests.factories import (
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)
from tests.ratings.factories import make_pool, publish_start_list

pytestmark = [pytest.mark.db_specific, pytest.mark.django_db]

PAGES = ("home", "tournaments:list")


def _rows(node: dict) -> int:
    """Rows a plan node's table scans touched (returned and filtered out, times their loops)."""
    own = 0
    if "Relation Name" in node:
        touched = node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
        own = touched * node.get("Actual Loops", 1)
    return own + sum(_rows(child) for child in node.get("Plans", []))


def _reads(client, name: str) -> list[str]:
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(name)).status_code == 200
    # A UNION of reads starts with "(SELECT" on PostgreSQL.
    return [q["sql"] for q in captured.captured_queries
            if q["sql"].lstrip().lstrip("(")[:6].upper() == "SELECT"]


def _scanned(client, name: str) -> int | list[str]:
    """PostgreSQL: the rows the page's reads scanned; SQLite: the tables they scan whole."""
    out, whole = 0, []
    with connection.cursor() as cursor:
        for sql in _reads(client, name):
            if connection.vendor == "postgresql":
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
                plan = cursor.fetchone()[0]
                out += _rows((json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"])
            else:
                cursor.execute("EXPLAIN QUERY PLAN " + sql)
                whole += [row[-1] for row in cursor.fetchall()
                          if row[-1].startswith("SCAN ratings_poolmember") and "INDEX" not in row[-1]]
    return out if connection.vendor == "postgresql" else whole


def _analyze() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _tournaments() -> None:
    """A running Swiss (its last round being played) and a finished one."""
    today = timezone.localdate()
    month_ago = today - datetime.timedelta(days=30)
    for name, start, open_last in (("Läuft", today, True), ("Vorbei", month_ago, False)):
        tournament = TournamentFactory(name=name, start_date=start, rounds_count=2,
                                       end_date=start + datetime.timedelta(days=2))
        players = [TournamentPlayerFactory(tournament=tournament, start_rank=rank) for rank in range(1, 5)]
        for number in (1, 2):
            rnd = RoundFactory(tournament=tournament, number=number)
            for board, (white, black) in enumerate([(0, 1), (2, 3)], start=1):
                result = Result.NOT_PLAYED if open_last and number == 2 else Result.DRAW
                GameFactory(round=rnd, board=board, white=players[white].member,
                            black=players[black].member, result=result)


def test_the_start_page_and_the_tournament_list_read_no_more_rows_for_a_bigger_pool(client):
    pool = make_pool()
    publish_start_list(pool, {m: 1400 + i for i, m in enumerate(MemberFactory.create_batch(50))})
    _tournaments()
    _analyze()
    small = {name: _scanned(client, name) for name in PAGES}
    # 450 more rated members, below the others on the list (their ranks follow on).
    PoolMember.objects.bulk_create(
        PoolMember(pool=pool, member=member, live_rating=1000 + i / 10, live_games=0, live_place=1)
        for i, member in enumerate(MemberFactory.create_batch(450)))
    live_ranks_renumber(pool.pk)  # their levels
    assert PoolMember.objects.filter(pool=pool, live_rating__isnull=False).count() == 500
    _analyze()
    big = {name: _scanned(client, name) for name in PAGES}
    if connection.vendor == "postgresql":
        for name in PAGES:
            assert big[name] <= small[name] + 10, (name, small[name], big[name])
    else:
        assert small == big == {name: [] for name in PAGES}
