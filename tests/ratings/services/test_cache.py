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


def test_a_bump_is_written_once_at_the_commit_and_read_by_its_own_transaction_at_once(
    monkeypatch, django_capture_on_commit_callbacks
):
    from django.core.cache import cache
    from django.db import transaction

    from ratings.services import cache as pool_cache

    first, everything = pool_cache_version(7), ratings_cache_version()
    writes = []
    real = cache.set_many
    monkeypatch.setattr(cache, "set_many",
                        lambda values, **kw: writes.append(set(values)) or real(values, **kw))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        pool_cache_bump(pool_id=7)
        inside = pool_cache_version(7)
        pool_cache_bump(pool_id=7)  # a second change of the same pool in the transaction
        assert pool_cache_version(7) not in (first, inside)
        assert ratings_cache_version() != everything
        assert pool_cache_version(8) == pool_cache_version(8)
        # Other processes read the cache: unchanged until the commit.
        assert cache.get(pool_cache._key(7)) == first and cache.get(pool_cache._ALL) == everything
        assert writes == []
    assert writes == [{pool_cache._key(7), pool_cache._ALL}]
    assert cache.get(pool_cache._key(7)) not in (first, inside)
    assert cache.get(pool_cache._ALL) != everything


def test_a_bump_rolled_back_is_forgotten():
    from django.db import transaction

    first = pool_cache_version(7)
    with transaction.atomic():
        try:
            with transaction.atomic():
                pool_cache_bump(pool_id=7)
                assert pool_cache_version(7) != first
                raise ValueError
        except ValueError:
            pass
        assert pool_cache_version(7) == first
