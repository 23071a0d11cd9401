import tempfile
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests import database_reset, database_template
from tests.demo_data import demo_restore, demo_snapshot_shared, demo_snapshot_take

# The properties are checked on as many examples on a busy machine as on an idle one; what is off is
# what times them against the wall clock (the health check on slow example generation, the deadline
# per example): on a machine busy with other work those fail a run whose every example passed.
hypothesis_settings.register_profile("suite", suppress_health_check=[HealthCheck.too_slow], deadline=None)
hypothesis_settings.load_profile("suite")

# A transactional test's database is emptied to the rows Django's flush leaves, in less time.
database_reset.install()

# Whether this process's test database is a copy of the template (tests/database_template.py).
FROM_TEMPLATE = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker, django_db_use_migrations,
                    django_db_keepdb, django_db_createdb, django_db_modify_db_settings):
    """pytest-django's test database, but copied from a template migrated once
    (tests/database_template.py). Options that ask for something else (``--reuse-db``,
    ``--nomigrations``) get pytest-django's own set-up."""
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    verbosity = request.config.option.verbose
    keepdb = django_db_keepdb and not django_db_createdb
    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    with django_db_blocker.unblock():
        if django_db_use_migrations and not keepdb and database_template.supported():
            config = database_template.setup_databases(serialize="default" in (serialized_aliases or ()))
            request.config.stash[FROM_TEMPLATE] = True
        else:
            if not django_db_use_migrations:
                _disable_migrations()
            config = setup_databases(verbosity=verbosity, interactive=False, aliases=aliases,
                                     serialized_aliases=serialized_aliases, keepdb=keepdb)
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            _close_other_sessions(config)
            teardown_databases(config, verbosity=verbosity)


def _close_other_sessions(config) -> None:
    """End what still holds a test database open on PostgreSQL (a thread's connection left by a
    live server or a job): PostgreSQL refuses to drop a database another session is using."""
    from django.db import connections

    connections.close_all()
    for connection, _old_name, _destroy in config:
        if connection.vendor != "postgresql":
            continue
        with connection._nodb_cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = %s AND pid <> pg_backend_pid()",
                           [connection.settings_dict["NAME"]])


@pytest.fixture(scope="session")
def demo_snapshot(request, django_db_setup, django_db_blocker):
    """The demo club's rows, seeded once per run (tests/demo_data.py): in a parallel run the first
    worker process seeds, the others read its rows (seeding takes about 7 s of CPU time)."""
    from django.db import connection

    with django_db_blocker.unblock():
        workerinput = getattr(request.config, "workerinput", None)
        # Rows seeded in one process fit another's database only if both are copies of one template.
        if workerinput is None or not request.config.stash.get(FROM_TEMPLATE, False):
            return demo_snapshot_take()
        path = Path(tempfile.gettempdir()) / (
            f"clubrating-test-demo-{workerinput['testrunuid']}-{connection.vendor}.pickle")
        # Each process removes it when it ends: a process that needs it later seeds again.
        request.config.add_cleanup(lambda: path.unlink(missing_ok=True))
        return demo_snapshot_shared(path, database_template.locked)


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
