"""The officials' pages: create a tournament, register players, pair a round, change a pairing."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from clubrating.tournaments.models import Game, Result, Round, Tournament, TournamentKind
from tests.factories import MemberFactory, TeamFactory, TournamentFactory, TournamentPlayerFactory
from tests.language import speak

from .helpers import page, text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["New tournament", "Tie-breaks", "Colour of player 1 in round 1", "Create"]),
    ("de-at", ["Neues Turnier", "Feinwertungen", "Farbe von Spieler 1 in Runde 1", "Anlegen"]),
])
def test_create_form(official_client, home_club, lang, words):
    html = text(page(official_client, "create", lang=lang))
    for word in words:
        assert word in html


def test_creating_a_tournament_leads_to_registration(official_client, home_club):
    response = official_client.post(reverse("tournaments:create"), {
        "name": "Blitzturnier", "kind": "round_robin", "category": "blitz", "start_date": "2026-12-01",
        "rounds_count": "1", "tiebreaks": "SB,WIN", "rated": "on",
    })
    tournament = Tournament.objects.get(name="Blitzturnier")
    assert response.status_code == 302
    assert response.url == reverse("tournaments:register", args=[tournament.pk])
    assert (tournament.kind, tournament.category, tournament.start_date, tournament.tiebreaks) == (
        "round_robin", "blitz", datetime.date(2026, 12, 1), "SB,WIN")


@pytest.mark.parametrize(("sent", "stored"), [("b", "b"), ("", "w"), (None, "w")])
def test_creating_a_tournament_with_the_initial_colour(official_client, home_club, sent, stored):
    data = {"name": "Open", "kind": "swiss", "category": "standard", "start_date": "2026-12-01",
            "rounds_count": "5", "tiebreaks": "BH,SB"}
    if sent is not None:
        data["initial_colour"] = sent
    official_client.post(reverse("tournaments:create"), data)
    assert Tournament.objects.get(name="Open").initial_colour == stored


def test_create_form_errors_are_translated_and_save_nothing(official_client, home_club):
    response = official_client.post(reverse("tournaments:create"), {"name": "", "kind": "round_robin"})
    assert response.status_code == 200
    assert "Dieses Feld ist zwingend erforderlich." in text(response)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Register players", "Search members", "Registered (0)"]),
    ("de-at", ["Spieler anmelden", "Mitglieder suchen", "Angemeldet (0)"]),
])
def test_register_page_searches_members(official_client, home_club, lang, words):
    tournament = TournamentFactory()
    MemberFactory(last_name="Gruber", first_name="Anna")
    MemberFactory(last_name="Huber", first_name="Bert")
    html = text(page(official_client, "register", tournament.pk, lang=lang, q="grub"))
    for word in words:
        assert word in html
    assert "Gruber, Anna" in html and "Huber" not in html


def test_registering_members_orders_them_by_rating(official_client, home_club):
    tournament = TournamentFactory()
    weak = MemberFactory(last_name="Weak", fide_rating=1500)
    strong = MemberFactory(last_name="Strong", fide_rating=2100)
    response = official_client.post(reverse("tournaments:register", args=[tournament.pk]),
                                     {"members": [weak.pk, strong.pk]})
    assert response.status_code == 302
    ranks = list(tournament.players.order_by("start_rank").values_list("member__last_name", "start_rank"))
    assert ranks == [("Strong", 1), ("Weak", 2)]


def test_registering_nobody_is_an_error(official_client, home_club):
    tournament = TournamentFactory()
    response = official_client.post(reverse("tournaments:register", args=[tournament.pk]), {})
    assert "Bitte mindestens ein Mitglied auswählen." in text(response)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Pair next round", "Round 1 will be paired for 4 registered players.", "Pair round 1"]),
    ("de-at", ["Nächste Runde auslosen", "Runde 1 wird für 4 angemeldete Spieler ausgelost.",
               "Runde 1 auslosen"]),
])
def test_pair_page(official_client, home_club, lang, words):
    tournament = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    for rank in range(1, 5):
        TournamentPlayerFactory(tournament=tournament, start_rank=rank)
    html = text(page(official_client, "pair", tournament.pk, lang=lang))
    for word in words:
        assert word in html


def test_pair_page_counts_team_rounds_paired_before_their_games(official_client, home_club):
    tournament = TournamentFactory(kind=TournamentKind.TEAM)
    for rank, name in enumerate("ABCD", start=1):
        TeamFactory(tournament=tournament, name=f"Team {name}", start_rank=rank)
    official_client.post(reverse("tournaments:pair", args=[tournament.pk]))
    assert Game.objects.filter(round__tournament=tournament).count() == 0  # no lineups yet
    html = text(page(official_client, "pair", tournament.pk, lang="en"))
    assert "Round 2 will be paired for 0 registered players." in html
    assert "Pair round 2" in html


def test_pairing_a_round_robin_round(official_client, home_club):
    tournament = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    for rank in range(1, 5):
        TournamentPlayerFactory(tournament=tournament, start_rank=rank)
    response = official_client.post(reverse("tournaments:pair", args=[tournament.pk]))
    assert response.status_code == 302
    assert response.url == reverse("tournaments:round", args=[tournament.pk, 1])
    # Berger table for 4 players, round 1: 1-4, 2-3.
    boards = list(Game.objects.filter(round__tournament=tournament).order_by("board")
                  .values_list("white__registrations__start_rank", "black__registrations__start_rank"))
    assert boards == [(1, 4), (2, 3)]


def test_pairing_is_refused_with_the_services_message(official_client, tournament):
    # Round 1 of the Swiss has no results yet: round 2 must wait.
    speak(official_client, "en")
    response = official_client.post(reverse("tournaments:pair", args=[tournament.pk]), follow=True)
    assert "Round 1 still has games without a result." in text(response)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()


def test_changing_a_pairing_before_results(official_client, tournament):
    game = Game.objects.get(round__tournament=tournament, board=1)
    adler, berger, ced, _dorn = tournament.members
    html = text(page(official_client, "pairing_edit", tournament.pk, 1, game.pk, lang="de-at"))
    assert "Runde 1, Brett 1: Paarung ändern" in html
    response = official_client.post(
        reverse("tournaments:pairing_edit", args=[tournament.pk, 1, game.pk]),
        {"white": adler.pk, "black": ced.pk})
    assert response.status_code == 302
    boards = list(Game.objects.filter(round__tournament=tournament).order_by("board")
                  .values_list("board", "white__last_name", "black__last_name"))
    assert boards == [(1, "Adler", "Ced"), (2, "Berger", "Dorn")]
    assert berger  # Berger took Ced's place on board 2 (services.game_pairing_change)


def test_swapping_colours(official_client, tournament):
    game = Game.objects.get(round__tournament=tournament, board=1)
    official_client.post(reverse("tournaments:pairing_swap", args=[tournament.pk, 1, game.pk]))
    board = Game.objects.get(round__tournament=tournament, board=1)
    assert (board.white.last_name, board.black.last_name) == ("Berger", "Adler")


def test_a_pairing_with_results_cannot_be_changed(official_client, tournament):
    Game.objects.filter(round__tournament=tournament, board=2).update(result=Result.DRAW,
                                                                      rated_result=Result.DRAW)
    game = Game.objects.get(round__tournament=tournament, board=1)
    speak(official_client, "en")
    response = official_client.post(reverse("tournaments:pairing_swap", args=[tournament.pk, 1, game.pk]),
                                    follow=True)
    assert "This round already has results; its pairing cannot be changed." in text(response)
    game.refresh_from_db()
    assert game.white.last_name == "Adler"


def test_round_page_offers_pairing_changes_only_before_results(official_client, tournament):
    assert "Swap colours" in text(page(official_client, "round", tournament.pk, 1))
    assert "Swap colours" not in text(page(Client(), "round", tournament.pk, 1))
    Game.objects.filter(round__tournament=tournament, board=2).update(result=Result.DRAW)
    assert "Swap colours" not in text(page(official_client, "round", tournament.pk, 1))
