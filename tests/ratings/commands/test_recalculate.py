from io import StringIO

import pytest
from django.core.management import call_command

from tests.ratings.services.scenario import build, play
from tests.ratings.services.test_recalc import snapshot

pytestmark = pytest.mark.django_db


def test_recalculate_command_rebuilds_the_same_records():
    pool, rated, newcomers, first, second, rng = build()
    play(first, rng)
    before = snapshot(pool)
    out = StringIO()
    call_command("recalculate", "--pool", pool.name, stdout=out)
    assert str(len(before[0])) in out.getvalue()
    assert snapshot(pool) == before
