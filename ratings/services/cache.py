"""A cache version per pool: cached pages built from a pool's ratings (the live list, the home
page's top list) carry it in their cache keys and ETags, so one bump invalidates them all.

Every service that changes a pool's published or live ratings calls ``pool_cache_bump``. It also
bumps the version of all pools together (``ratings_cache_version``), which pages showing several
pools at once (a member's page) carry. The versions live in Django's cache framework; with
several server processes that cache must be shared between them (a LocMem cache is per process).

A bump inside a transaction is written to the cache once, when the transaction commits: other
processes cannot see the change before, so their pages, and the versions they carry, stay right
until then. Until then the transaction itself (a page drawn after the change, in the same
transaction) reads a version of its own, so it never takes a page cached before its change. (A
result save writes the cache once instead of twice: the file cache's writes are most of its cost.)
"""

from __future__ import annotations

import itertools
import uuid

from django.core.cache import cache
from django.db import connection, transaction

_ALL = "ratings:pools:version"
_order = itertools.count()


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


class _Bump:
    """The bump of one pool waiting for its transaction's commit (an on-commit callback), with
    the version the transaction reads meanwhile."""

    def __init__(self, pool_id: int) -> None:
        self.pool_id = pool_id
        self.renew()

    def renew(self) -> None:
        self.version = uuid.uuid4().hex
        self.order = next(_order)

    def __call__(self) -> None:
        cache.set_many({_key(self.pool_id): uuid.uuid4().hex, _ALL: uuid.uuid4().hex}, timeout=None)


def _waiting() -> list[_Bump]:
    """The bumps the running transaction will write when it commits (Django keeps a transaction's
    on-commit callbacks until it commits, and drops those of a savepoint rolled back)."""
    if not connection.in_atomic_block:
        return []
    return [func for _savepoints, func, *_rest in connection.run_on_commit if isinstance(func, _Bump)]


def pool_cache_version(pool_id: int) -> str:
    """The pool's current cache version (as the running transaction sees the pool)."""
    waiting = [bump for bump in _waiting() if bump.pool_id == pool_id]
    return waiting[-1].version if waiting else _version(_key(pool_id))


def ratings_cache_version() -> str:
    """The current cache version of all pools together: it changes whenever any pool's does."""
    waiting = _waiting()
    return max(waiting, key=lambda bump: bump.order).version if waiting else _version(_ALL)


def pool_cache_bump(*, pool_id: int) -> None:
    """Invalidate everything cached from the pool's ratings: for other processes when the running
    transaction commits (at once outside a transaction), for the transaction itself at once."""
    waiting = [bump for bump in _waiting() if bump.pool_id == pool_id]
    if waiting:  # written once at the commit; the transaction reads a new version
        waiting[-1].renew()
        return
    transaction.on_commit(_Bump(pool_id))
