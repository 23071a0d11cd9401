"""The director's registration pages: withdrawals, requested byes, guests, unpairing a round."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Bye, ByeKind, Game, Result, TournamentPlayer
from tests.language import speak

from .helpers import assert_forbidden, assert_sent_to_login, page, text

pytestmark = pytest.mark.django_db


def _player(tournament, last_name):
    return TournamentPlayer.objects.get(tournament=tournament, member__last_name=last_name)


def _finish_round_1(tournament):
    Game.objects.filter(round__tournament=tournament, round__number=1).update(
        result=Result.WHITE_WINS, rated_result=Result.WHITE_WINS)


def _round_members(tournament, number):
    games = Game.objects.filter(round__tournament=tournament, round__number=number)
    return ({g.white.last_name for g in games} | {g.black.last_name for g in games},
            {(b.member.last_name, b.kind) for b in Bye.objects.filter(round__tournament=tournament,
                                                                      round__number=number)})


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Withdrawals and byes", "Withdraw a player", "From round", "Request a bye", "Kind of bye",
            "half-point bye", "Request bye", "Withdrawn from round", "1. Adler, Max"]),
    ("de-at", ["Rückzüge und spielfreie Runden", "Spieler zurückziehen", "Ab Runde",
               "Spielfreie Runde beantragen", "Art der spielfreien Runde", "spielfrei (½ Punkt)",
               "Beantragen", "Zurückgezogen ab Runde", "1. Adler, Max"]),
])
def test_manage_page(official_client, tournament, lang, words):
    html = text(page(official_client, "players_manage", tournament.pk, lang=lang))
    for word in words:
        assert word in html, word


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Withdrawals and byes", "Register a guest"]),
    ("de-at", ["Rückzüge und spielfreie Runden", "Gast anmelden"]),
])
def test_players_page_links_to_the_officials_pages(official_client, tournament, lang, words):
    html = text(page(official_client, "players", tournament.pk, lang=lang))
    for word in words:
        assert word in html
    visitor = text(page(Client(), "players", tournament.pk, lang=lang))
    for word in words:
        assert word not in visitor


def test_a_withdrawn_player_is_not_paired_in_the_next_round(official_client, tournament):
    dorn = _player(tournament, "Dorn")
    response = official_client.post(reverse("tournaments:player_withdraw", args=[tournament.pk]),
                                    {"withdraw-player": dorn.pk, "withdraw-from_round": 2})
    assert response.status_code == 302
    assert response.url == reverse("tournaments:players_manage", args=[tournament.pk])
    dorn.refresh_from_db()
    assert dorn.withdrawn_from_round == 2
    _finish_round_1(tournament)
    official_client.post(reverse("tournaments:pair", args=[tournament.pk]))
    players, byes = _round_members(tournament, 2)
    assert "Dorn" not in players and "Dorn" not in {name for name, _kind in byes}
    # Three players left: two play, one gets the pairing-allocated bye.
    assert len(players) == 2 and len(byes) == 1 and next(iter(byes))[1] == ByeKind.PAIRING


def test_withdrawing_from_a_paired_round_is_refused(official_client, tournament):
    dorn = _player(tournament, "Dorn")
    speak(official_client, "en")
    response = official_client.post(reverse("tournaments:player_withdraw", args=[tournament.pk]),
                                    {"withdraw-player": dorn.pk, "withdraw-from_round": 1})
    assert response.status_code == 200
    assert "Round 1 is already paired with this player; change that pairing first." in text(response)
    dorn.refresh_from_db()
    assert dorn.withdrawn_from_round is None


def test_withdraw_form_errors_are_translated(official_client, tournament):
    response = official_client.post(reverse("tournaments:player_withdraw", args=[tournament.pk]),
                                    {"withdraw-from_round": 0})
    html = text(response)
    assert "Dieses Feld ist zwingend erforderlich." in html
    assert "Dieser Wert muss größer oder gleich 1 sein." in html
    assert not tournament.players.filter(withdrawn_from_round__isnull=False).exists()


def test_a_requested_bye_keeps_the_player_out_of_the_pairing(official_client, tournament):
    ced = _player(tournament, "Ced")
    speak(official_client, "en")
    response = official_client.post(reverse("tournaments:bye_request", args=[tournament.pk]),
                                    {"bye-player": ced.pk, "bye-round_number": 2, "bye-kind": "half"},
                                    follow=True)
    assert "Ced, Max: half-point bye in round 2." in text(response)
    assert "round 2: half-point bye" in text(response)
    _finish_round_1(tournament)
    official_client.post(reverse("tournaments:pair", args=[tournament.pk]))
    players, byes = _round_members(tournament, 2)
    assert "Ced" not in players
    assert ("Ced", ByeKind.HALF) in byes


def test_a_bye_for_a_paired_round_is_refused(official_client, tournament):
    ced = _player(tournament, "Ced")
    response = official_client.post(reverse("tournaments:bye_request", args=[tournament.pk]),
                                    {"bye-player": ced.pk, "bye-round_number": 1, "bye-kind": "zero"})
    assert "Runde 1 ist bereits ausgelost." in text(response)
    assert not Bye.objects.exists()


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Register a guest", "Last name", "A club not yet known is created.", "Birth year",
            "National rating"]),
    ("de-at", ["Gast anmelden", "Nachname", "Ein noch unbekannter Verein wird angelegt.", "Geburtsjahr",
               "Nationale Elo"]),
])
def test_guest_page(official_client, tournament, lang, words):
    html = text(page(official_client, "guest_register", tournament.pk, lang=lang))
    for word in words:
        assert word in html, word


def test_a_guest_becomes_a_member_of_his_club(official_client, tournament):
    response = official_client.post(reverse("tournaments:guest_register", args=[tournament.pk]), {
        "last_name": "Gast", "first_name": "Gustav", "club_name": "SV Gästehaus", "birth_year": 1990,
        "rating": 1700, "fide_rating": 1750, "sex": "m",
    })
    assert response.status_code == 302
    assert response.url == reverse("tournaments:register", args=[tournament.pk])
    member = Member.objects.get(last_name="Gast")
    assert (member.first_name, member.club.name, member.birth_year, member.fide_rating, member.sex) == (
        "Gustav", "SV Gästehaus", 1990, 1750, "m")
    player = TournamentPlayer.objects.get(tournament=tournament, member=member)
    # Pairing has started, so the guest is a late entry with the next starting number.
    assert (player.start_rank, player.rating, player.fide_rating) == (5, 1700, 1750)


def test_a_guest_needs_a_last_name(official_client, tournament):
    response = official_client.post(reverse("tournaments:guest_register", args=[tournament.pk]),
                                    {"first_name": "Gustav", "club_name": "SV Neu"})
    assert response.status_code == 200
    assert "Dieses Feld ist zwingend erforderlich." in text(response)
    assert not Club.objects.filter(name="SV Neu").exists()
    assert tournament.players.count() == 4


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Unpair round 1", "The pairing of round 1 is removed so that the round can be paired again."]),
    ("de-at", ["Auslosung von Runde 1 aufheben",
               "Die Auslosung von Runde 1 wird entfernt, damit die Runde neu ausgelost werden kann."]),
])
def test_unpair_page(official_client, tournament, lang, words):
    html = text(page(official_client, "unpair", tournament.pk, lang=lang))
    for word in words:
        assert word in html
    assert reverse("tournaments:unpair", args=[tournament.pk]) in text(
        page(official_client, "pair", tournament.pk, lang=lang))


def test_unpairing_a_round_without_results(official_client, tournament):
    speak(official_client, "en")
    response = official_client.post(reverse("tournaments:unpair", args=[tournament.pk]), follow=True)
    assert "The pairing of round 1 has been removed." in text(response)
    assert not Game.objects.filter(round__tournament=tournament).exists()
    assert "No round is paired yet." in text(page(official_client, "unpair", tournament.pk))


def test_a_round_with_results_cannot_be_unpaired(official_client, tournament):
    Game.objects.filter(round__tournament=tournament, board=2).update(result=Result.DRAW)
    speak(official_client, "en")
    response = official_client.post(reverse("tournaments:unpair", args=[tournament.pk]), follow=True)
    assert "This round already has results; its pairing cannot be redone." in text(response)
    assert Game.objects.filter(round__tournament=tournament).count() == 2


def _protected(tournament):
    pk, dorn = tournament.pk, _player(tournament, "Dorn")
    gets = [reverse(f"tournaments:{name}", args=[pk])
            for name in ("players_manage", "guest_register", "unpair")]
    posts = [
        (reverse("tournaments:player_withdraw", args=[pk]), {"withdraw-player": dorn.pk,
                                                             "withdraw-from_round": 2}),
        (reverse("tournaments:bye_request", args=[pk]), {"bye-player": dorn.pk, "bye-round_number": 2,
                                                         "bye-kind": "half"}),
        (reverse("tournaments:guest_register", args=[pk]), {"last_name": "Eindringling"}),
        (reverse("tournaments:unpair", args=[pk]), {}),
    ]
    return gets, posts


def _unchanged(tournament):
    assert Game.objects.filter(round__tournament=tournament).count() == 2
    assert not tournament.players.filter(withdrawn_from_round__isnull=False).exists()
    assert not Bye.objects.exists()
    assert not Member.objects.filter(last_name="Eindringling").exists()


def test_visitors_are_sent_to_the_login_page(tournament):
    assert_sent_to_login(Client(), *_protected(tournament))
    _unchanged(tournament)


def test_members_without_the_role_get_403(client, plain_user, tournament):
    client.force_login(plain_user)
    assert_forbidden(client, *_protected(tournament))
    _unchanged(tournament)



def test_registration_takes_the_published_rating_of_the_pool_and_shows_the_live_one(
        official_client, tournament, home_club):
    from ratings.models import PoolMember
    from tests.factories import MemberFactory

    newcomer = MemberFactory(last_name="Zeller", first_name="Eva", club=home_club, fide_rating=1911)
    PoolMember.objects.create(pool=tournament.pool, member=newcomer, rating=1850.4, games_count=20,
                              live_rating=1862.0, live_change=11.6, live_games=2)
    html = text(page(official_client, "register", tournament.pk, lang="de-at", q="Zeller"))
    assert "Zeller, Eva (1850, live 1862)" in html

    response = official_client.post(reverse("tournaments:register", args=[tournament.pk]) + "?q=Zeller",
                                     {"members": [newcomer.pk]})

    assert response.status_code == 302
    player = TournamentPlayer.objects.get(tournament=tournament, member=newcomer)
    assert (player.rating, player.fide_rating) == (1850, 1911)


@pytest.mark.parametrize("name", ["overview", "players", "standings", "crosstable"])
def test_every_tab_heads_the_national_rating_by_its_pool_and_fide_apart(client, tournament, name):
    html = text(page(client, name if name != "overview" else "detail", tournament.pk))
    # The layout classes hide columns on phones; the national column is headed by its pool.
    assert re.search(r'<th class="num[^"]*">Standard</th>\s*<th class="num[^"]*">FIDE</th>', html)
    assert '<th class="num">Rating</th>' not in html
