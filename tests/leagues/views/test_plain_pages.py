"""The division's pages read its matches without joining each to its division, teams and members
again (``leagues.division_matches``): as many queries for one match played as for the whole
season, cold (the cache emptied) as the first reader after a save finds them."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import ClubFactory
from tests.leagues.played import play, rate_everyone

PAGES = ["leagues:division", "leagues:division_rounds", "leagues:division_players"]


def _counts(league) -> dict[str, int]:
    counts = {}
    for name in PAGES:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = Client().get(reverse(name, args=[league.first.pk]))
        assert response.status_code == 200
        counts[name] = len(queries.captured_queries)
    return counts


@pytest.mark.django_db
def test_queries_are_the_same_for_one_match_and_a_whole_season(league):
    ClubFactory(name="Schachklub Heimat", is_home=True, public_tournaments=True)
    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    one = _counts(league)
    cache.clear()
    for home, number, outcome in [("Favoriten 1", 1, "LLWW"), ("Donaustadt 1", 2, "WWLD"),
                                  ("Hietzing 1", 3, "DDDD"), ("Favoriten 1", 3, "DWLW")]:
        play(league, home, number, outcome)
    assert _counts(league) == one


@pytest.mark.django_db
@pytest.mark.db_specific
def test_games_are_read_once_by_their_rounds_alone(league):
    """The division's games are read once per page, with the tournament's version (the page's
    tables take them from there), through their rounds' index, without the join to rounds and
    tournaments that the games' default order brings (PostgreSQL read 124,080 game rows through it
    for a division of 528 games at 20,000 members)."""
    ClubFactory(name="Schachklub Heimat", is_home=True, public_tournaments=True)
    rate_everyone(league)
    play(league, "Donaustadt 1", 1, "WDL-", away_ranks=(1, 2, 3, None))
    for name in PAGES:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(reverse(name, args=[league.first.pk])).status_code == 200
        reads = [q["sql"] for q in queries.captured_queries
                 if q["sql"].startswith('SELECT "tournaments_game".')]
        assert len(reads) == 1, (name, reads)
        sql = reads[0]
        assert '"tournaments_game"."round_id" IN' in sql and 'JOIN "tournaments_round"' not in sql, sql
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET LOCAL enable_seqscan = off")  # the plan a big table gets
                cursor.execute("EXPLAIN " + sql)
            else:
                cursor.execute("EXPLAIN QUERY PLAN " + sql)
            plan = " ".join(str(col) for row in cursor.fetchall() for col in row)
        assert "round_id" in plan and "tournaments_game_pkey" not in plan, plan
        assert "SCAN tournaments_game" not in plan, plan
