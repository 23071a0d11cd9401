from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import PeriodState
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_close_period_and_reopen():
    pool = make_pool(name="P")
    out = StringIO()
    call_command("close_period", "--pool", "P", stdout=out)
    assert "2025-07-01" in out.getvalue() or "01.07.2025" in out.getvalue()
    assert pool.periods.filter(state=PeriodState.CLOSED).count() == 1
    with pytest.raises(CommandError, match="reason"):
        call_command("reopen_period", "--pool", "P", "--reason", " ")
    call_command("reopen_period", "--pool", "P", "--reason", "Korrektur")
    # The reopened period is open again; the one after it waits until it is closed again.
    assert [(str(p.start), p.state) for p in pool.periods.order_by("start")] == [
        ("2025-01-01", PeriodState.OPEN), ("2025-07-01", PeriodState.WAITING)
    ]
    call_command("close_period", "--pool", "P", stdout=out)
    assert [(str(p.start), p.state) for p in pool.periods.order_by("start")] == [
        ("2025-01-01", PeriodState.CLOSED), ("2025-07-01", PeriodState.OPEN)
    ]


def test_unknown_pool_refused():
    with pytest.raises(CommandError):
        call_command("close_period", "--pool", "nope")
