"""German pages group thousands (1.234,5), but never inside ids, years or attributes."""

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from clubrating.tournaments.models import Result
from tests.factories import ClubFactory, GameFactory, MemberFactory, RoundFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def official_client(client):
    user = User.objects.create_user("offi", password="pw-offi-2026")
    user.groups.add(Group.objects.get_or_create(name="officials")[0])
    client.force_login(user)
    return client


def test_result_entry_ids_of_large_primary_keys_stay_plain(official_client):
    ClubFactory(name="Heim", is_home=True)
    rnd = RoundFactory(tournament=TournamentFactory(), number=1)
    game = GameFactory(pk=1561, round=rnd, board=1, result=Result.NOT_PLAYED)
    url = reverse("tournaments:results", args=[rnd.tournament_id, 1])
    html = official_client.get(url).content.decode()
    assert f'id="board-{game.pk}"' in html
    assert 'id="r1561-1"' in html
    assert "1.561" not in html


def test_member_list_shows_years_without_grouping(client):
    ClubFactory(name="Heim", is_home=True, public_birth_years=True)
    MemberFactory(last_name="Wagner", birth_year=1997, fide_rating=2408)
    html = client.get(reverse("clubs:member_list")).content.decode()
    assert ">1997<" in html.replace(" ", "").replace("\n", "")
    assert "1.997" not in html
