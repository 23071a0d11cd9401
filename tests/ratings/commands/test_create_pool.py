import datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import RatingPool
from tests.ratings.factories import english  # noqa: E402,F401  (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_create_pool_opens_the_first_period():
    call_command(
        "create_pool", "Schnellschach", "--rules", "oesb-2024", "--category", "rapid", "--start", "2025-02-10"
    )
    pool = RatingPool.objects.get(name="Schnellschach")
    assert (pool.rules, pool.category) == ("oesb-2024", "rapid")
    assert pool.periods.get().end == datetime.date(2025, 3, 31)


@pytest.mark.parametrize(
    "args",
    [
        ["X", "--rules", "nope"],
        ["X", "--category", "bullet"],
        ["X", "--start", "31.02.2025"],
    ],
)
def test_bad_arguments_are_refused(args):
    with pytest.raises(CommandError):
        call_command("create_pool", *args)
    assert not RatingPool.objects.exists()


def test_duplicate_name_refused():
    call_command("create_pool", "A", "--start", "2025-01-01")
    with pytest.raises(CommandError, match="already exists"):
        call_command("create_pool", "A", "--start", "2025-01-01")


@pytest.mark.parametrize(
    ("rules", "option", "years"),
    [("oesb-2024", [], 7), ("fide-2025", [], None), ("oesb-2024", ["--inactivity-years", "0"], None),
     ("fide-2025", ["--inactivity-years", "5"], 5)],
)
def test_inactivity_years_follow_the_rule_set_unless_given(rules, option, years):
    call_command("create_pool", "P", "--rules", rules, "--start", "2025-01-01", *option)
    assert RatingPool.objects.get().inactivity_years == years


def test_negative_inactivity_years_are_refused():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("create_pool", "P", "--start", "2025-01-01", "--inactivity-years", "-2")
    assert not RatingPool.objects.exists()
