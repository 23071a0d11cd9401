"""The admin keeps the rules the tournament's pages keep: a paired tournament keeps its system,
tie-breaks are chosen from the codes the standings know, a player with games stays in his
tournament, and a deletion the site would refuse is refused with the reason, in German."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubrating.tournaments.models import Result, Round, Tournament, TournamentKind, TournamentPlayer
from tests.factories import GameFactory, RoundFactory, TournamentFactory, TournamentPlayerFactory
from tests.tournaments.admin_helpers import change, form_data

pytestmark = pytest.mark.django_db


def messages_of(response):
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def swiss_with_round_one(result=Result.NOT_PLAYED):
    tournament = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=5, tiebreaks="BH/C1,BH,SB")
    a, b = TournamentPlayerFactory(tournament=tournament), TournamentPlayerFactory(tournament=tournament)
    game = GameFactory(round=RoundFactory(tournament=tournament, number=1), white=a.member, black=b.member,
                       result=result, board=1)
    return tournament, a, game


def test_a_paired_swiss_cannot_be_made_a_round_robin(admin_client):
    tournament, _a, _game = swiss_with_round_one()

    response = change(admin_client, "tournament", tournament, kind=TournamentKind.ROUND_ROBIN,
                      double_round_robin="on")

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.kind, tournament.double_round_robin) == (TournamentKind.SWISS, False)


def test_an_unpaired_tournament_may_change_its_system(admin_client):
    tournament = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=5)

    response = change(admin_client, "tournament", tournament, kind=TournamentKind.ROUND_ROBIN)
    assert response.status_code == 302, response.context["adminform"].form.errors

    tournament.refresh_from_db()
    assert tournament.kind == TournamentKind.ROUND_ROBIN


def test_tiebreaks_are_chosen_from_the_known_codes(admin_client):
    tournament = TournamentFactory(tiebreaks="BH/C1,BH,SB")
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    data = form_data(admin_client.get(url))
    data.update({"tiebreaks_0": "XYZ", "tiebreaks_1": "BH", "tiebreaks_2": ""})

    response = admin_client.post(url, data)

    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.tiebreaks == "BH/C1,BH,SB"
    assert "XYZ" in str(response.context["adminform"].form.errors["tiebreaks"])


def test_tiebreaks_chosen_in_order_are_saved_as_codes(admin_client):
    tournament = TournamentFactory(tiebreaks="BH/C1,BH,SB")
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    data = form_data(admin_client.get(url))
    data.update({"tiebreaks_0": "DE", "tiebreaks_1": "SB", "tiebreaks_2": "WIN"})

    admin_client.post(url, data)

    tournament.refresh_from_db()
    assert tournament.tiebreaks == "DE,SB,WIN"


def test_a_player_with_games_cannot_be_moved_to_another_tournament(admin_client):
    tournament, player, _game = swiss_with_round_one(Result.WHITE_WINS)
    other = TournamentFactory()

    change(admin_client, "tournamentplayer", player, tournament=other.pk)

    player.refresh_from_db()
    assert player.tournament_id == tournament.pk


def test_a_player_with_games_is_not_deleted_and_the_reason_is_german(admin_client):
    tournament, player, _game = swiss_with_round_one()

    one = admin_client.post(reverse("admin:tournaments_tournamentplayer_delete", args=[player.pk]),
                            {"post": "yes"})
    bulk = admin_client.post(reverse("admin:tournaments_tournamentplayer_changelist"),
                             {"action": "delete_selected", "_selected_action": [player.pk], "post": "yes"})

    assert TournamentPlayer.objects.filter(pk=player.pk).exists()
    assert one.status_code == bulk.status_code == 302
    [(level, text)] = messages_of(one)
    assert level == "error" and "hat Partien in diesem Turnier und bleibt darin" in text


def test_a_player_with_games_is_not_removed_in_the_tournaments_page(admin_client):
    tournament, player, _game = swiss_with_round_one()
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    data = form_data(admin_client.get(url))
    row = next(k for k, v in data.items()
               if k.startswith("players-") and k.endswith("-id") and v == player.pk)
    data[row.replace("-id", "-DELETE")] = "on"

    response = admin_client.post(url, data)

    assert response.status_code == 200
    assert TournamentPlayer.objects.filter(pk=player.pk).exists()


def test_a_round_with_results_is_not_deleted_and_the_reason_is_german(admin_client):
    tournament, _player, game = swiss_with_round_one(Result.DRAW)

    response = admin_client.post(reverse("admin:tournaments_round_changelist"),
                                 {"action": "delete_selected", "_selected_action": [game.round_id],
                                  "post": "yes"})

    assert response.status_code == 302
    assert Round.objects.filter(pk=game.round_id).exists()
    [(level, text)] = messages_of(response)
    assert level == "error" and text.endswith("Runde 1 hat Ergebnisse und kann nicht gelöscht werden.")


def test_only_the_last_round_without_results_is_deleted(admin_client):
    tournament, _player, game = swiss_with_round_one()
    second = RoundFactory(tournament=tournament, number=2)

    first = admin_client.post(reverse("admin:tournaments_round_delete", args=[game.round_id]),
                              {"post": "yes"})
    last = admin_client.post(reverse("admin:tournaments_round_delete", args=[second.pk]), {"post": "yes"})

    assert [m for m in messages_of(first)] == [
        ("error", "Runde 1 ist nicht die letzte Runde; zuerst die späteren Runden löschen.")]
    assert last.status_code == 302
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]


def test_a_tournament_with_results_is_not_deleted_and_says_why(admin_client):
    tournament, _player, _game = swiss_with_round_one(Result.WHITE_WINS)

    response = admin_client.post(reverse("admin:tournaments_tournament_delete", args=[tournament.pk]),
                                 {"post": "yes"})

    assert response.status_code == 302
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    [(level, text)] = messages_of(response)
    assert level == "error" and "hat Ergebnisse" in text


def test_a_paired_swiss_keeps_its_acceleration(admin_client):
    # The virtual points of the accelerated rounds (C.04.5.1) are fixed by round 1's pairing.
    tournament, _a, _game = swiss_with_round_one()

    response = change(admin_client, "tournament", tournament, acceleration="baku")

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.acceleration == "none"


def test_an_unpaired_swiss_may_choose_baku_acceleration(admin_client):
    tournament = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=5, tiebreaks="BH/C1,BH,SB")

    response = change(admin_client, "tournament", tournament, acceleration="baku")
    assert response.status_code == 302, response.context["adminform"].form.errors

    tournament.refresh_from_db()
    assert tournament.acceleration == "baku"
