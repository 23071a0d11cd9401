"""The live list of a pool without the rated club of the other list tests (its own home club): what
it shows agrees with what closing the period would publish."""

import datetime

import pytest
from django.urls import reverse

from clubrating.clubs.models import Club
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.factories import MemberFactory
from tests.ratings.views.test_lists import as_official, table_rows  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.mark.usefixtures("as_official")
def test_the_live_list_shows_what_closing_would_publish_floor_included(client, officer):
    """Austrian national rating rules (ÖSB), floor 1200: the live list and the close preview agree
    on 1200 and +46 for a player at 1154 whose period adds 9."""
    from ratings.services.pools import open_period
    from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game

    Club.objects.create(name="Heim", short_name="Heim", is_home=True, public_ratings=True)
    pool = make_pool()
    low = MemberFactory(last_name="Tief", first_name="Toni")
    strong = MemberFactory(last_name="Stark", first_name="Sepp")
    publish_start_list(pool, {low: (1154, 30), strong: (1400, 30)})
    game_record_result(game=unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), low, strong),
                       result=Result.DRAW)

    live = client.get(reverse("ratings:live", args=[pool.pk]))
    client.force_login(officer)
    preview = client.get(reverse("ratings:period_close", args=[open_period(pool).pk]))

    [row] = [r for r in table_rows(live) if r[1] == "Tief, Toni"]
    [previewed] = [r for r in table_rows(preview) if r[1] == "Tief, Toni"]
    # Rank, name, title, club, born, sex, rating, change, games, in period, markers, class.
    assert (row[6], row[7], row[9]) == ("1200", "+46", "1")
    assert (previewed[6], previewed[7]) == (row[6], row[7])
