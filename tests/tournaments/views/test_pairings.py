"""The pairing rows' reads: as many for a big tournament as for a small one, the players' members
read by key (a join of the players to the members makes PostgreSQL scan a federation's members)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubrating.clubs.models import Member
from clubrating.tournaments.models import TournamentPlayer
from clubrating.tournaments.views.public import rounds_with_pairings
from tests.factories import MemberFactory
from tests.tournaments.test_selectors import round_robin

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("size", "others"), [(4, 0), (12, 30)])
def test_pairing_rows_reads_do_not_grow(size, others):
    t = round_robin(size)
    MemberFactory.create_batch(others)  # members of the pool who do not play
    with CaptureQueriesContext(connection) as captured:
        rounds = rounds_with_pairings(t)
    # Rounds, their games, their byes; the players, their members by key; the results and byes by
    # round for the points before each round.
    assert len(captured.captured_queries) == 7
    assert len(rounds) == t.rounds_count
    first = rounds[0].rows[0]
    assert (first.white.member.last_name, first.white.start_rank) == ("P1", 1)
    players, members = TournamentPlayer._meta.db_table, Member._meta.db_table
    joined = [q["sql"] for q in captured.captured_queries
              if f'FROM "{players}"' in q["sql"] and f'JOIN "{members}"' in q["sql"]]
    assert joined == []
