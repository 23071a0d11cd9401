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


# --- The people of the tests: one user per role, the same in every directory -----------------------
# Browser tests log them in through the real form with these passwords.
PASSWORDS = {"offi": "offi-pw-2026", "officer": "officer-pw", "plain": "pw-plain", "staff": "pw-staff"}


def role_user(username: str, *groups: str, password: str | None = None, **extra):
    """A user in ``groups`` (names), with the password of ``PASSWORDS`` unless given."""
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user(username, password=password or PASSWORDS.get(username, f"pw-{username}"),
                                    **extra)
    for name in groups:
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    return user


@pytest.fixture
def official(db, settings):
    """A tournament official ("offi")."""
    return role_user("offi", settings.OFFICIALS_GROUP)


@pytest.fixture
def officer(db, settings):
    """The rating officer ("officer")."""
    return role_user("officer", settings.RATING_OFFICERS_GROUP)


@pytest.fixture
def plain_user(db):
    """A user without any role ("plain")."""
    return role_user("plain")


@pytest.fixture
def staff_user(db):
    """A staff user without any group ("staff")."""
    return role_user("staff", is_staff=True)


@pytest.fixture
def official_client(client, official):
    """The test client, logged in as the official."""
    client.force_login(official)
    return client


@pytest.fixture
def officer_client(client, officer):
    """The test client, logged in as the rating officer."""
    client.force_login(officer)
    return client
