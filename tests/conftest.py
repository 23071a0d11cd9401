import pytest
from django.db import transaction

from tests.demo_data import demo_restore, demo_snapshot_take


@pytest.fixture(scope="session")
def demo_snapshot(django_db_setup, django_db_blocker):
    """The demo club's rows, seeded once per test process (tests/demo_data.py)."""
    with django_db_blocker.unblock():
        return demo_snapshot_take()


@pytest.fixture(scope="module")
def demo_club(demo_snapshot, django_db_blocker):
    """The demo club (``seed_demo``), for one test module: copied in inside a transaction that is
    rolled back when the module is done. Each test runs in a savepoint within it, so what a test
    changes is undone before the next one, as with a fresh demo club per test."""
    with django_db_blocker.unblock(), transaction.atomic():
        demo_restore(demo_snapshot)
        yield
        transaction.set_rollback(True)
