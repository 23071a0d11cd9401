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
        "tiebreaks": "SB,WIN", "rated": "on",
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
    tournament = TournamentFactory(kind=TournamentKind.SWISS, rounds_count=5)
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


def test_pairing_a_round_robin_pairs_its_whole_schedule(official_client, home_club):
    tournament = TournamentFactory(kind=TournamentKind.ROUND_ROBIN)
    for rank in range(1, 5):
        TournamentPlayerFactory(tournament=tournament, start_rank=rank)
    response = official_client.post(reverse("tournaments:pair", args=[tournament.pk]))
    assert response.status_code == 302
    assert response.url == reverse("tournaments:pairings", args=[tournament.pk])
    # The whole Berger table for 4 players: 1-4, 2-3 / 4-3, 1-2 / 2-4, 3-1.
    boards = list(Game.objects.filter(round__tournament=tournament).order_by("round__number", "board")
                  .values_list("white__registrations__start_rank", "black__registrations__start_rank"))
    assert boards == [(1, 4), (2, 3), (4, 3), (1, 2), (2, 4), (3, 1)]


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


def test_pair_button_is_disabled_with_the_reason_while_results_are_missing(official_client, tournament):
    html = text(page(official_client, "pair", tournament.pk, lang="de-at"))
    assert "In Runde 1 fehlen noch Ergebnisse." in html
    assert 'disabled aria-describedby="pair-blocked"' in html
    assert reverse("tournaments:results", args=[tournament.pk, 1]) in html


def test_player_picker_shows_rating_birth_year_club_and_marks_namesakes(official_client, tournament):
    from ratings.models import PoolMember
    from tests.factories import ClubFactory, MemberFactory

    linz, graz = ClubFactory(name="SK Linz"), ClubFactory(name="SK Graz")
    first = MemberFactory(last_name="Gruber", first_name="Anna", birth_year=1990, club=linz)
    MemberFactory(last_name="Gruber", first_name="Anna", birth_year=2013, club=graz)
    PoolMember.objects.create(pool=tournament.pool, member=first, rating=2107, games_count=30)
    html = text(page(official_client, "register", tournament.pk, lang="de-at", q="gruber"))
    rows = html[html.index("picker-table"):html.index("</table>", html.index("picker-table"))]
    assert rows.count("Namensgleich") == 2
    assert "1990" in rows and "2013" in rows and "SK Linz" in rows and "SK Graz" in rows
    assert ">2107<" in rows and "2.107" not in rows


def test_registered_players_get_their_rating_and_numbers_by_rating(official_client, tournament):
    from clubrating.tournaments.models import Round
    from ratings.models import PoolMember
    from tests.factories import MemberFactory, TournamentFactory

    fresh = TournamentFactory(name="Frühjahr", rated=True, category=tournament.category)
    weak, strong = MemberFactory(last_name="Weak"), MemberFactory(last_name="Strong")
    PoolMember.objects.create(pool=tournament.pool, member=weak, rating=1500, games_count=10)
    PoolMember.objects.create(pool=tournament.pool, member=strong, rating=2100, games_count=10)
    official_client.post(reverse("tournaments:register", args=[fresh.pk]),
                         {"action": "register", "members": [weak.pk, strong.pk]})
    assert list(fresh.players.order_by("start_rank").values_list("member__last_name", "rating")) == [
        ("Strong", 2100), ("Weak", 1500)]
    # The director's override, then back to the order by rating.
    ids = dict(fresh.players.values_list("member__last_name", "pk"))
    official_client.post(reverse("tournaments:register", args=[fresh.pk]),
                         {"action": "ranks", f"rank-{ids['Weak']}": 1, f"rank-{ids['Strong']}": 2})
    assert list(fresh.players.order_by("start_rank").values_list("member__last_name", flat=True)) == [
        "Weak", "Strong"]
    response = official_client.post(reverse("tournaments:register", args=[fresh.pk]),
                                    {"action": "ranks", f"rank-{ids['Weak']}": 1, f"rank-{ids['Strong']}": 1},
                                    follow=True)
    assert "Jeder Spieler braucht eine andere Startnummer von 1 bis 2." in text(response)
    official_client.post(reverse("tournaments:register", args=[fresh.pk]), {"action": "by_rating"})
    assert list(fresh.players.order_by("start_rank").values_list("member__last_name", flat=True)) == [
        "Strong", "Weak"]
    assert not Round.objects.filter(tournament=fresh).exists()


@pytest.mark.parametrize(("start", "codes", "stored"), [
    ("2026-12-01", "bh/c1, sb,TPN", ("2026", "BH/C1,SB,TPN")),
    ("2025-10-01", "BH/C1,SB", ("2023", "BH/C1,SB")),
])
def test_a_new_tournament_stores_the_tiebreak_regulations_of_its_start_date(
        official_client, home_club, start, codes, stored):
    official_client.post(reverse("tournaments:create"), {
        "name": "Open", "kind": "swiss", "category": "standard", "start_date": start, "rounds_count": "5",
        "tiebreaks": codes})
    t = Tournament.objects.get(name="Open")
    assert (t.tiebreak_rules, t.tiebreaks) == stored


@pytest.mark.parametrize(("lang", "start", "kind", "codes", "message"), [
    ("en", "2025-10-01", "swiss", "BH,TPN",
     "“TPN” is not a tie-break of FIDE C.07 (edition 2023) for this system."),
    ("en", "2026-12-01", "swiss", "BH,XYZ", "“XYZ” is not a tie-break of FIDE C.07 (edition 2026)"),
    ("de-at", "2026-12-01", "round_robin", "SB,BH",
     "„BH“ ist keine Feinwertung nach FIDE C.07 (Ausgabe 2026)"),
])
def test_unknown_tiebreak_codes_are_refused(official_client, home_club, lang, start, kind, codes, message):
    data = {"name": "Open", "kind": kind, "category": "standard", "start_date": start, "tiebreaks": codes}
    if kind == "swiss":
        data["rounds_count"] = "5"
    response = speak(official_client, lang).post(reverse("tournaments:create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.filter(name="Open").exists()


@pytest.mark.parametrize(("kind", "team_codes", "stored"), [
    ("team", "win, eggsb,DE", "WIN,EGGSB,DE"),
    ("team", "", "GP,EMGSB"),
    ("swiss", "WIN", "GP,EMGSB"),  # not a team competition: the field is not used
])
def test_a_team_competition_stores_its_team_tiebreaks(official_client, home_club, kind, team_codes, stored):
    data = {"name": "Cup", "kind": kind, "category": "standard", "start_date": "2026-12-01",
            "tiebreaks": "SB", "team_tiebreaks": team_codes}
    if kind == "swiss":
        data["rounds_count"] = "5"
    official_client.post(reverse("tournaments:create"), data)
    assert Tournament.objects.get(name="Cup").team_tiebreaks == stored


@pytest.mark.parametrize(("lang", "codes", "message"), [
    ("en", "GP,BH", "“BH” is not a team tie-break ClubRating knows, or it is listed twice."),
    ("de-at", "GP,GP", "„GP“ ist keine Mannschaftsfeinwertung, die ClubRating kennt, oder sie steht zweimal"),
])
def test_unknown_team_tiebreaks_are_refused(official_client, home_club, lang, codes, message):
    response = speak(official_client, lang).post(reverse("tournaments:create"), {
        "name": "Cup", "kind": "team", "category": "standard", "start_date": "2026-12-01", "tiebreaks": "SB",
        "team_tiebreaks": codes})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.filter(name="Cup").exists()
