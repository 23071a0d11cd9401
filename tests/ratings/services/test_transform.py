import pytest

from ratings.models import ListKind, PoolMember
from ratings.services import RatingsError, pool_transform_2024
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
    publish_start_list,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_transformation_publishes_an_audited_list_once():
    pool = make_pool(rules="oesb-2024")
    low, mid, high = MemberFactory(), MemberFactory(), MemberFactory()
    publish_start_list(pool, {low: 700, mid: 1400, high: 2100})

    plist = pool_transform_2024(pool=pool)

    assert plist.kind == ListKind.TRANSFORMATION and "transformation" in plist.note
    values = {e.member_id: (e.rating, e.change) for e in plist.entries.all()}
    # 1400 + 600 x 0.333333 = 1599.9998 -> 1600
    assert values == {low.pk: (700, 0), mid.pk: (1600, 200), high.pk: (2100, 0)}
    assert PoolMember.objects.get(pool=pool, member=mid).rating == 1600
    with pytest.raises(RatingsError, match="already"):
        pool_transform_2024(pool=pool)


def test_transformation_only_for_oesb_pools():
    pool = make_pool(rules="fide-2024")
    with pytest.raises(RatingsError):
        pool_transform_2024(pool=pool)
