import datetime
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game

pytestmark = pytest.mark.django_db


def rows(*args):
    out = StringIO()
    call_command("rating_list", "--pool", "P", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def test_published_and_live_lists():
    pool = make_pool(name="P")
    a = MemberFactory(last_name="Ahorn", first_name="Eva")
    b = MemberFactory(last_name="Birke", first_name="Max")
    publish_start_list(pool, {a: 1830, b: 1980})
    game_record_result(
        game=unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b), result=Result.DRAW
    )

    published = rows()
    assert [(r["rank"], r["name"], r["rating"], r["change"], r["games"]) for r in published] == [
        (1, "Birke, Max", 1980, None, 0),
        (2, "Ahorn, Eva", 1830, None, 0),
    ]
    live = rows("--live")
    assert [(r["rank"], r["rating"], r["change"], r["games"], r["provisional"]) for r in live] == [
        (1, 1976, -4, 1, True),
        (2, 1835, 5, 1, True),
    ]
    assert rows("--period", "2025-01-01") == published


def test_no_list_refused():
    make_pool(name="P")
    with pytest.raises(CommandError):
        call_command("rating_list", "--pool", "P")
    with pytest.raises(CommandError):
        call_command("rating_list", "--pool", "P", "--period", "gestern")
