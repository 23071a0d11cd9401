import pytest
from django.core.management import call_command
from django.db import transaction


@pytest.fixture(scope="module")
def demo_club(django_db_setup, django_db_blocker):
    """The demo club (``seed_demo``), created once per test module: inside a transaction that is
    rolled back when the module is done. Each test runs in a savepoint within it, so what a test
    changes is undone before the next one, as with a fresh demo club per test."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("seed_demo", verbosity=0)
        yield
        transaction.set_rollback(True)
