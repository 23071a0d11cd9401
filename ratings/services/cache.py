"""A cache version per pool: cached pages built from a pool's ratings (the live list, the home
page's top list) carry it in their cache keys and ETags, so one bump invalidates them all.

Every service that changes a pool's published or live ratings calls ``pool_cache_bump``. It also
bumps the version of all pools together (``ratings_cache_version``), which pages showing several
pools at once (a member's page) carry. The versions live in Django's cache framework; with
several server processes that cache must be shared between them (a LocMem cache is per process).
"""

from __future__ import annotations

import uuid

from django.core.cache import cache
from django.db import transaction

_ALL = "ratings:pools:version"


def _key(pool_id: int) -> str:
    return f"ratings:pool:{pool_id}:version"


def _version(key: str) -> str:
    """The version stored under ``key`` (a new random one when the cache has none)."""
    version = cache.get(key)
    if version is None:
        version = uuid.uuid4().hex
        # add(): two first readers at once agree on one version
        if not cache.add(key, version, timeout=None):
            version = cache.get(key, version)
    return version


def pool_cache_version(pool_id: int) -> str:
    """The pool's current cache version."""
    return _version(_key(pool_id))


def ratings_cache_version() -> str:
    """The current cache version of all pools together: it changes whenever any pool's does."""
    return _version(_ALL)


def pool_cache_bump(*, pool_id: int) -> None:
    """Invalidate everything cached from the pool's ratings: now, and again when the running
    transaction commits (a page read between the two saw the uncommitted state)."""

    def bump() -> None:
        cache.set_many({_key(pool_id): uuid.uuid4().hex, _ALL: uuid.uuid4().hex}, timeout=None)

    bump()
    transaction.on_commit(bump)
