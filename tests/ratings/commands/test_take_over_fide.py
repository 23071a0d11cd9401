import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import FideTakeover, ListKind, PoolMember, PublishedList
from tests.factories import MemberFactory
from tests.ratings.factories import (
    english,  # noqa: E402,F401  (fixture)
    make_pool,
    publish_start_list,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def pool():
    pool = make_pool(name="Standard", start=datetime.date(2026, 1, 1))  # oesb-classic: converts
    publish_start_list(pool, {MemberFactory(last_name="Alt"): 1800})
    return pool


def test_named_members_are_taken_over(pool):
    emil = MemberFactory(first_name="Emil", last_name="Fuchs", fide_rating=1700)
    franz = MemberFactory(first_name="Franz", last_name="Gruber", fide_rating=2100)
    out = StringIO()
    call_command(
        "take_over_fide",
        "--pool",
        "Standard",
        "--member",
        str(emil.pk),
        "--member",
        str(franz.pk),
        stdout=out,
    )
    assert out.getvalue() == (
        "Gruber, Franz: FIDE 2100 → 2133\n"
        "Fuchs, Emil: FIDE 1700 → 1600\n"
        "Published the list with 2 first ratings taken over from FIDE.\n"
    )
    plist = PublishedList.objects.get(pool=pool, kind=ListKind.FIDE_TAKEOVER)
    assert plist.entries.count() == 3
    assert PoolMember.objects.get(pool=pool, member=emil).rating == 1600


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pool", "Nirgends"], "There is no rating pool named “Nirgends”."),
        (["--pool", "Standard", "--member", "x"], "A member ID is a whole number."),
        (
            ["--pool", "Standard", "--member", "999999"],
            "No FIDE rating was taken over: no member has the ID 999999.",
        ),
        (["--pool", "Standard"], "No newcomer of the pool “Standard” has a FIDE rating."),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(pool, args, message):
    with pytest.raises(CommandError) as refused:
        call_command("take_over_fide", *args)
    assert str(refused.value) == message
    assert not FideTakeover.objects.exists()
    assert PublishedList.objects.filter(pool=pool).count() == 1


def test_exit_status_1_on_bad_input(pool, capsys):
    from django.core.management import execute_from_command_line

    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "take_over_fide", "--pool", "Nirgends"])
    assert exited.value.code == 1
    assert "There is no rating pool named “Nirgends”." in capsys.readouterr().err
