"""A cache version per pool: cached pages built from a pool's ratings (the live list, the home
page's top list) carry it in their cache keys and ETags, so one bump invalidates them all.

Every service that changes a pool's published or live ratings calls ``pool_cache_bump``. The
version lives in Django's cache framework; with several server processes that cache must be
shared between them (a LocMem cache is per process).
"""

from __future__ import annotations

import uuid

from django.core.cache import cache
from django.db import transaction


def _key(pool_id: int) -> str:
    return f"ratings:pool:{pool_id}:version"


def pool_cache_version(pool_id: int) -> str:
    """The pool's current cache version (a new random one when the cache has none)."""
    version = cache.get(_key(pool_id))
    if version is None:
        version = uuid.uuid4().hex
        # add(): two first readers at once agree on one version
        if not cache.add(_key(pool_id), version, timeout=None):
            version = cache.get(_key(pool_id), version)
    return version


def pool_cache_bump(*, pool_id: int) -> None:
    """Invalidate everything cached from the pool's ratings: now, and again when the running
    transaction commits (a page read between the two saw the uncommitted state)."""

    def bump() -> None:
        cache.set(_key(pool_id), uuid.uuid4().hex, timeout=None)

    bump()
    transaction.on_commit(bump)
