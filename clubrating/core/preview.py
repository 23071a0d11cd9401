"""Previews: run the very service that confirming runs, then roll everything back.

What a preview shows is then exactly what confirming saves. The result must be plain data (the
services' reports are), since the rows it was read from are gone after the rollback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import transaction

__all__ = ["dry_run"]

T = TypeVar("T")


class _RollBack(Exception):
    """Raised to roll a preview's transaction back."""


def dry_run(action: Callable[[], T]) -> T:
    """Run ``action()`` in a transaction that is rolled back; returns its result."""
    outcome = None
    try:
        with transaction.atomic():
            outcome = action()
            raise _RollBack
    except _RollBack:
        pass
    return outcome
