"""Deleting games in the admin goes through the rating services (docs/rules.md §4.3: only services
change ratings), and a game of a closed rating period is not deleted."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from clubrating.tournaments.models import Game, Result, ResultChange, Round, Tournament
from ratings.models import PoolMember, RatingRecord
from ratings.services import game_record_result, period_close
from tests.factories import MemberFactory
from tests.ratings.factories import make_pool, make_round, publish_start_list, unplayed_game
from tests.tournaments.admin_helpers import change

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


# --- changing games, rounds and tournaments -------------------------------------------------------


def records(game):
    return sorted(RatingRecord.objects.filter(game=game).values_list("member_id", "period_id", "score"))


def test_the_players_of_a_rated_game_cannot_be_changed_in_the_admin(admin_client, rated_game):
    pool, a, game = rated_game
    intruder = MemberFactory()
    before = records(game)
    html = admin_client.get(reverse("admin:tournaments_game_change", args=[game.pk])).content.decode()
    assert 'name="white"' not in html and 'name="black"' not in html and 'name="round"' not in html

    change(admin_client, "game", game, white=intruder.pk)

    game.refresh_from_db()
    assert game.white_id == a.pk
    assert records(game) == before


def test_the_players_of_an_unplayed_board_are_changed_through_the_pairing_service(admin_client):
    from tests.factories import TournamentPlayerFactory

    rnd = make_round(start_date=datetime.date(2025, 3, 1))
    a, b, c, d = (MemberFactory() for _ in range(4))
    for m in (a, b, c, d):
        TournamentPlayerFactory(tournament=rnd.tournament, member=m)
    first = unplayed_game(rnd, a, b, board=1)
    unplayed_game(rnd, c, d, board=2)

    response = change(admin_client, "game", first, white=c.pk)

    assert response.status_code == 302
    boards = sorted(Game.objects.filter(round=rnd).values_list("board", "white_id", "black_id"))
    # c left board 2 for board 1; a, displaced, takes his place (services.game_pairing_change).
    assert boards == [(1, c.pk, b.pk), (2, a.pk, d.pk)]


def test_a_pairing_change_the_service_refuses_saves_nothing_and_says_why(admin_client):
    rnd = make_round(start_date=datetime.date(2025, 3, 1))
    a, b, stranger = MemberFactory(), MemberFactory(), MemberFactory()
    game = unplayed_game(rnd, a, b)

    response = change(admin_client, "game", game, white=stranger.pk, board=7)

    assert response.status_code == 302
    assert response.url == reverse("admin:tournaments_game_change", args=[game.pk])
    game.refresh_from_db()
    assert (game.white_id, game.board) == (a.pk, 1)
    assert messages_of(response) == [
        ("error", "Beide Spieler müssen in diesem Turnier angemeldet sein.")
    ]


def test_a_rated_games_date_moves_its_records_through_the_ratings_service(admin_client, rated_game):
    pool, a, game = rated_game
    first = game.rating_records.first().period
    period_close(pool=pool)
    game_record_result(game=unplayed_game(make_round(start_date=datetime.date(2025, 8, 1)),
                                          MemberFactory(), MemberFactory()), result=Result.DRAW)
    # A game of the closed first period cannot be moved out of it.
    response = change(admin_client, "game", game, date="2025-08-02")
    game.refresh_from_db()
    assert game.date is None
    assert {r.period_id for r in game.rating_records.all()} == {first.pk}
    [(level, text)] = messages_of(response)
    assert level == "error" and "abgeschlossenen Wertungsperiode 01.01.2025–30.06.2025" in text


def test_a_date_change_in_the_open_period_follows_into_the_ratings(admin_client):
    pool = make_pool()
    a, b = MemberFactory(), MemberFactory()
    publish_start_list(pool, {a: 1950, b: 1820})
    game = unplayed_game(make_round(start_date=datetime.date(2025, 3, 1)), a, b)
    game_record_result(game=game, result=Result.BLACK_WINS)

    response = change(admin_client, "game", game, date="2025-05-04")

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.date == datetime.date(2025, 5, 4)
    assert set(game.rating_records.values_list("played_on", flat=True)) == {datetime.date(2025, 5, 4)}


@pytest.mark.parametrize("model", ["ratingrecord", "listentry", "publishedlist", "poolmember"])
def test_rating_data_is_view_only_in_the_admin(admin_client, rated_game, model):
    from django.apps import apps
    from django.contrib import admin as django_admin
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = get_user_model().objects.get(is_superuser=True)
    cls = apps.get_model("ratings", model)
    model_admin = django_admin.site._registry.get(cls)
    if model_admin is None:  # list entries: only shown inline on their list
        lists = apps.get_model("ratings", "publishedlist")
        [inline] = django_admin.site._registry[lists].inlines
        model_admin = inline(lists, django_admin.site)
        assert (model_admin.has_add_permission(request, None), model_admin.can_delete) == (False, False)
        assert set(model_admin.readonly_fields) == set(model_admin.fields)
        return
    assert (model_admin.has_add_permission(request), model_admin.has_change_permission(request),
            model_admin.has_delete_permission(request)) == (False, False, False)
    assert model_admin.has_view_permission(request)


def test_the_result_history_cannot_be_changed_or_deleted(admin_client, rated_game):
    pool, a, game = rated_game
    entry = ResultChange.objects.get(game=game)

    delete = admin_client.post(reverse("admin:tournaments_resultchange_delete", args=[entry.pk]),
                               {"post": "yes"})
    bulk = admin_client.post(reverse("admin:tournaments_resultchange_changelist"),
                             {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    edit = admin_client.post(reverse("admin:tournaments_resultchange_change", args=[entry.pk]),
                             {"new_result": Result.DRAW})

    assert delete.status_code == 403
    assert bulk.status_code in (200, 302)
    assert edit.status_code == 403
    entry.refresh_from_db()
    assert entry.new_result == Result.BLACK_WINS
    assert ResultChange.objects.count() == 1


def test_a_round_and_a_tournament_with_results_keep_their_dates_and_cannot_be_deleted(admin_client,
                                                                                     rated_game):
    pool, a, game = rated_game
    rnd, tournament = game.round, game.round.tournament
    before = records(game)
    assert (rnd.date, tournament.start_date) == (datetime.date(2025, 3, 1), datetime.date(2025, 3, 1))

    change(admin_client, "round", rnd, date="2025-09-09")
    change(admin_client, "tournament", tournament, start_date="2025-09-09")
    deletes = [
        admin_client.post(reverse("admin:tournaments_round_delete", args=[rnd.pk]), {"post": "yes"}),
        admin_client.post(reverse("admin:tournaments_tournament_delete", args=[tournament.pk]),
                          {"post": "yes"}),
    ]

    rnd.refresh_from_db()
    tournament.refresh_from_db()
    assert (rnd.date, tournament.start_date) == (datetime.date(2025, 3, 1), datetime.date(2025, 3, 1))
    # Refused with the reason (tests/tournaments/test_admin_rules.py), back on the change page.
    assert [r.status_code for r in deletes] == [302, 302]
    assert Round.objects.filter(pk=rnd.pk).exists() and Tournament.objects.filter(pk=tournament.pk).exists()
    assert records(game) == before


def test_bulk_deletion_reports_the_deleted_and_each_refused_game(admin_client, rated_game):
    pool, a, game = rated_game
    period_close(pool=pool)
    later = unplayed_game(make_round(start_date=datetime.date(2025, 9, 1)), MemberFactory(), MemberFactory())
    game_record_result(game=later, result=Result.DRAW)
    url = reverse("admin:tournaments_game_changelist")

    confirm = admin_client.post(url, {"action": "delete_selected", "_selected_action": [game.pk, later.pk]})
    response = admin_client.post(url, {"action": "delete_selected", "_selected_action": [game.pk, later.pk],
                                       "post": "yes"})

    assert confirm.status_code == 200 and "Sind Sie sicher" in confirm.content.decode()
    levels = sorted(level for level, _text in messages_of(response))
    assert levels == ["error", "success"]
    texts = dict((level, text) for level, text in messages_of(response))
    assert texts["success"] == "1 Partie gelöscht."
    game.refresh_from_db()
    assert texts["error"].startswith(str(game) + ": ") and "abgeschlossenen Wertungsperiode" in texts["error"]


def test_the_games_page_shows_the_history_with_its_reasons(admin_client, rated_game):
    _pool, _a, game = rated_game
    game_record_result(game=game, result=Result.DRAW, seen=Result.BLACK_WINS,
                       reason="Partieformular verlesen")
    html = admin_client.get(reverse("admin:tournaments_game_change", args=[game.pk])).content.decode()
    assert "Partieformular verlesen" in html
    assert ResultChange.objects.filter(game=game).count() == 2
