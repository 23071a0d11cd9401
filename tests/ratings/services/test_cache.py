"""The per-pool cache version that cached list pages and the home page's top list follow."""

import pytest

from ratings.services.cache import pool_cache_bump, pool_cache_version, ratings_cache_version

pytestmark = pytest.mark.django_db


def test_version_is_stable_until_bumped():
    first = pool_cache_version(7)
    assert pool_cache_version(7) == first
    assert pool_cache_version(8) != first
    pool_cache_bump(pool_id=7)
    assert pool_cache_version(7) != first
    assert pool_cache_version(8) == pool_cache_version(8)


def test_version_of_all_pools_follows_every_pool():
    first = ratings_cache_version()
    pool_cache_version(8)  # reading a pool's version changes nothing
    assert ratings_cache_version() == first
    pool_cache_bump(pool_id=8)
    second = ratings_cache_version()
    assert second != first
    pool_cache_bump(pool_id=7)
    assert ratings_cache_version() not in (first, second)
