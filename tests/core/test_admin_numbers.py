"""The admin shows ratings and FIDE IDs as every page does: never digit-grouped ("1.600.238")."""

import datetime
import re

import pytest
from django.urls import reverse

from ratings.models import PoolMember
from ratings.services import pool_create
from tests.factories import MemberFactory, TournamentFactory, TournamentPlayerFactory
from tests.language import speak

pytestmark = pytest.mark.django_db

GROUPED = re.compile(r">\s*\d{1,3}(?:[.,]\d{3})+\s*<")


@pytest.mark.parametrize("lang", ["de-at", "en"])
def test_member_changelist_shows_fide_ids_and_ratings_as_digits(admin_client, lang):
    MemberFactory(last_name="Egger", first_name="Max", fide_id=1600238, fide_rating=1762)
    html = speak(admin_client, lang).get(reverse("admin:clubs_member_changelist")).content.decode()
    assert '<td class="field-fide_id_id">1600238</td>' in html
    assert '<td class="field-fide_rating_rating">1762</td>' in html
    assert not GROUPED.findall(html)


def test_tournament_players_and_pool_members_show_ratings_as_digits(admin_client):
    member = MemberFactory(last_name="Egger", first_name="Max", fide_rating=2105)
    TournamentPlayerFactory(tournament=TournamentFactory(), member=member, start_rank=1, rating=1834,
                            fide_rating=2105)
    url = reverse("admin:tournaments_tournamentplayer_changelist")
    html = speak(admin_client, "de-at").get(url).content.decode()
    assert ">1834</td>" in html and ">2105</td>" in html and not GROUPED.findall(html)

    pool = pool_create(name="Standard", start_date=datetime.date(2026, 7, 1))
    pool_member = PoolMember.objects.create(pool=pool, member=member, rating=1834, games_count=1234,
                                            live_rating=1841, live_change=7.0)
    html = speak(admin_client, "de-at").get(
        reverse("admin:ratings_poolmember_change", args=[pool_member.pk])).content.decode()
    assert '<div class="readonly">1834</div>' in html and '<div class="readonly">1841</div>' in html
    assert '<div class="readonly">+7</div>' in html
