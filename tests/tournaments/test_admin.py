"""Deleting games in the admin goes through the rating services (docs/rules.md §4.3: only services
change ratings), and a game of a closed rating period is not deleted."""

import datetime

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubrating.tournaments.models import Game, Result
from ratings.models import PoolMember, RatingRecord
from ratings.services import game_record_result, period_close
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_game():
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)
    game_record_result(game=game, result=Result.BLACK_WINS)
    assert PoolMember.objects.get(pool=pool, member=a).live_rating != 1950
    return pool, a, game


def messages_of(response):
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def test_deleting_a_game_re_evaluates_the_ratings(admin_client, rated_game):
    pool, a, game = rated_game
    url = reverse("admin:tournaments_game_delete", args=[game.pk])

    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    member = PoolMember.objects.get(pool=pool, member=a)
    assert (member.live_rating, member.live_change, member.live_games) == (1950, None, 0)


def test_a_game_of_a_closed_period_is_not_deleted(admin_client, rated_game):
    pool, a, game = rated_game
    period_close(pool=pool)
    url = reverse("admin:tournaments_game_delete", args=[game.pk])

    response = admin_client.post(url, {"post": "yes"})

    assert Game.objects.filter(pk=game.pk).exists()
    assert RatingRecord.objects.filter(game=game).count() == 2
    assert response.status_code == 302
    assert response.url == reverse("admin:tournaments_game_change", args=[game.pk])
    # The site speaks Austrian German: the refusal is the service's translated message.
    [(level, text)] = messages_of(response)
    assert level == "error" and "abgeschlossenen Wertungsperiode 01.01.2025–30.06.2025" in text


def test_bulk_deletion_keeps_closed_games_and_deletes_the_others(admin_client, rated_game):
    pool, a, game = rated_game
    period_close(pool=pool)
    c, d = MemberFactory(), MemberFactory()
    later = unplayed_game(make_round(start_date=datetime.date(2025, 9, 1)), c, d)
    game_record_result(game=later, result=Result.DRAW)

    response = admin_client.post(
        reverse("admin:tournaments_game_changelist"),
        {"action": "delete_selected", "_selected_action": [game.pk, later.pk], "post": "yes"},
    )

    assert response.status_code == 302
    assert list(Game.objects.values_list("pk", flat=True)) == [game.pk]
    assert not RatingRecord.objects.filter(game_id=later.pk).exists()
    assert [level for level, _text in messages_of(response)].count("error") == 1
