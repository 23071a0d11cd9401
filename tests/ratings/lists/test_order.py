"""One order for every rating list (ratings.lists.order): rating, then name folded and compared
letter by letter, then record number. Members tied on the rating come out in the same order on
the live list (SQL), its ranks and page, and the published list (Python at the closing), on
SQLite and on PostgreSQL alike."""

import pytest
from django.http import QueryDict

from ratings.lists.faces import list_filters, list_table, live_source, published_source
from ratings.lists.order import rank_key
from ratings.models import ListEntry
from ratings.selectors import live_list, live_ranks
from ratings.services import period_close
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, publish_start_list

pytestmark = pytest.mark.django_db

# The order the rule gives: folded, "Berger, anna" before "Berger, Bernd", "de Vries" before
# "Dorner" (a binary comparison of the names as written would put "D" before "d" and "Ö" last).
TIED = [("Berger", "anna"), ("Berger", "Bernd"), ("de Vries", "Ida"), ("Dorner", "Hans"), ("Oswald", "Eva"),
        ("Özdemir", "Ali")]


@pytest.fixture
def pool():
    pool = make_pool(name="Standard")
    # Created in reverse, so that the record numbers alone would give the opposite order.
    tied = [MemberFactory(last_name=last, first_name=first) for last, first in reversed(TIED)]
    best = MemberFactory(last_name="Zach", first_name="Anton")
    twins = [MemberFactory(last_name="Gleich", first_name="Jo") for _ in range(2)]
    publish_start_list(pool, {best: 2100, **{m: 1800 for m in tied}, **{m: 1500 for m in twins}})
    return pool


def expected(pool):
    members = {pm.member_id: pm for pm in pool.members.select_related("member")}
    return sorted(members, key=lambda m: rank_key(members[m].live_rating, members[m].member.last_name,
                                                   members[m].member.first_name, m))


def names(member_ids, pool):
    by_id = {pm.member_id: pm.member for pm in pool.members.select_related("member")}
    return [(by_id[m].last_name, by_id[m].first_name) for m in member_ids]


def test_the_rule_itself(pool):
    order = names(expected(pool), pool)
    assert order[0] == ("Zach", "Anton")
    assert order[1:7] == TIED
    assert order[7:] == [("Gleich", "Jo")] * 2


def test_live_and_published_lists_agree(pool):
    want = expected(pool)
    ranks = live_ranks(pool)
    assert sorted(ranks, key=ranks.get) == want
    assert [e.member.pk for e in live_list(pool)] == want
    live = live_source(pool.pk)
    table = list_table(live, list_filters(QueryDict()), QueryDict())
    assert [row.member_id for row in table.data.data] == want
    plist = period_close(pool=pool)
    ranked = ListEntry.objects.filter(list=plist).order_by("rank").values_list("member_id", flat=True)
    assert list(ranked) == want
    published = published_source(plist.pk)
    table = list_table(published, list_filters(QueryDict()), QueryDict())
    assert [row.member_id for row in table.data.data] == want
    # Twins by name: the record number decides, the first registered first.
    twins = want[7:]
    assert twins == sorted(twins)
