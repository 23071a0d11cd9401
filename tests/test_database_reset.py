"""tests/database_reset.py leaves the database as Django's flush does after a transactional test."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection

from tests import database_reset
from tests.conftest import role_user
from tests.factories import TournamentPlayerFactory

# DELETE and deferred foreign keys behave differently on SQLite and PostgreSQL: checked on both.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.db_specific]


def _fill():
    """Rows in many tables, linked by foreign keys both ways."""
    for _ in range(3):
        TournamentPlayerFactory()
    user = role_user("resetter", "Turnierleitung")
    user.user_permissions.add(Permission.objects.order_by("pk").first())


def _state() -> dict[str, object]:
    """Every table's row count; the signal's rows by their natural keys (their ids differ after
    each flush)."""
    tables = database_reset._tables(connection)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return {
        "counts": counts,
        "content types": sorted(ContentType.objects.values_list("app_label", "model")),
        "permissions": sorted(Permission.objects.values_list(
            "content_type__app_label", "content_type__model", "codename", "name")),
    }


def test_reset_leaves_what_the_flush_leaves():
    database_reset.flush(DEFAULT_DB_ALIAS)
    _fill()
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False,
                 inhibit_post_migrate=False)
    flushed = _state()
    _fill()
    database_reset.flush(DEFAULT_DB_ALIAS)
    _fill()
    signal_rows = sorted(ContentType.objects.values_list("pk", "app_label", "model"))
    database_reset.reset(DEFAULT_DB_ALIAS)
    assert _state() == flushed
    # Kept, not written again.
    assert sorted(ContentType.objects.values_list("pk", "app_label", "model")) == signal_rows
    assert {table for table, count in flushed["counts"].items() if count} == {
        "auth_permission", "django_content_type"}
    assert len(flushed["permissions"]) > 100


@pytest.mark.parametrize("change", ["delete", "rename", "add"])
def test_changed_signal_rows_are_written_again(change):
    database_reset.flush(DEFAULT_DB_ALIAS)
    expected = _state()
    permission = Permission.objects.get(codename="view_group")
    if change == "delete":
        permission.delete()
    elif change == "rename":
        Permission.objects.filter(pk=permission.pk).update(name="Renamed")
    else:
        ContentType.objects.create(app_label="gone", model="model")
    Group.objects.create(name="Left behind")
    database_reset.reset(DEFAULT_DB_ALIAS)
    assert _state() == expected


def test_transactional_tests_reset_so():
    from django.test import TransactionTestCase

    assert TransactionTestCase._fixture_teardown is database_reset.fixture_teardown
