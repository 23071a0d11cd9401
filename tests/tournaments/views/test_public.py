"""Every tournament page in both languages, with its content."""

import pytest

from clubrating.tournaments.models import Game, Result, TournamentKind
from tests.factories import ByeFactory, GameFactory, MemberFactory, RoundFactory, TournamentPlayerFactory

from .helpers import page, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament):
    """Round 1 finished: Adler beat Berger, Ced and Dorn drew."""
    Game.objects.filter(round__tournament=tournament, board=1).update(result=Result.WHITE_WINS,
                                                                      rated_result=Result.WHITE_WINS)
    Game.objects.filter(round__tournament=tournament, board=2).update(result=Result.DRAW,
                                                                      rated_result=Result.DRAW)
    return tournament


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Tournaments", "Herbstturnier", "Players"]),
    ("de-at", ["Turniere", "Herbstturnier", "Spieler"]),
])
def test_tournament_list(client, tournament, lang, words):
    html = text(page(client, "list", lang=lang))
    for word in words:
        assert word in html


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Overview", "Starting list", "Round 1", "Swiss system", "BH, SB", "2026-09-01"]),
    ("de-at", ["Übersicht", "Startrangliste", "Runde 1", "Schweizer System", "BH, SB", "01.09.2026"]),
])
def test_overview(client, played, lang, words):
    html = text(page(client, "detail", played.pk, lang=lang))
    for word in words:
        assert word in html
    assert "Adler, Max" in html and "1830" in html


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Players", "Rating", "Club"]), ("de-at", ["Spieler", "Wertung", "Verein"]),
])
def test_players_with_ratings(client, tournament, lang, words):
    html = text(page(client, "players", tournament.pk, lang=lang))
    for word in words:
        assert word in html
    # Ratings are printed like every chess list prints them: without a thousands separator.
    for name, rating in [("Adler", "1830"), ("Berger", "1980"), ("Ced", "1950"), ("Dorn", "1820")]:
        assert name in html and f">{rating}<" in html


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Pairings", "Round 1", "Board", "White", "Black"]),
    ("de-at", ["Paarungen", "Runde 1", "Brett", "Weiß", "Schwarz"]),
])
def test_pairings_of_all_rounds_and_of_one_round(client, played, lang, words):
    for response in (page(client, "pairings", played.pk, lang=lang),
                     page(client, "round", played.pk, 1, lang=lang)):
        html = text(response)
        for word in words:
            assert word in html
        assert "1-0" in html and "½-½" in html


def test_byes_are_listed_with_the_pairings(client, tournament):
    extra = MemberFactory(last_name="Ebner")
    TournamentPlayerFactory(tournament=tournament, member=extra, start_rank=5)
    ByeFactory(round=tournament.rounds.get(number=1), member=extra)
    html = text(page(client, "round", tournament.pk, 1))
    assert "Ebner" in html and "pairing-allocated bye" in html


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Standings", "Rank", "Points", "BH", "SB", "1.0", "0.5", "0.0"]),
    ("de-at", ["Rangliste", "Rang", "Punkte", "BH", "SB", "1,0", "0,5", "0,0"]),
])
def test_standings_with_the_tournaments_tiebreaks(client, played, lang, words):
    html = text(page(client, "standings", played.pk, lang=lang))
    for word in words:
        assert word in html
    # Adler 1 point first, Ced and Dorn ½ share rank 2, Berger last.
    order = [html.index(name) for name in ("Adler", "Ced", "Dorn", "Berger")]
    assert order == sorted(order)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Progress table", "Rd. 1", ">2w1<", ">1b0<", ">4w½<", ">3b½<"]),
    ("de-at", ["Fortschrittstabelle", "Rd. 1", ">2w1<", ">1s0<", ">4w½<", ">3s½<"]),
])
def test_progress_table_for_a_swiss(client, played, lang, words):
    html = text(page(client, "crosstable", played.pk, lang=lang))
    for word in words:
        assert word in html


@pytest.mark.parametrize(("lang", "word", "points"), [
    ("en", "Crosstable", "1.0"), ("de-at", "Kreuztabelle", "1,0"),
])
def test_crosstable_for_a_round_robin(client, played, lang, word, points):
    played.kind = TournamentKind.ROUND_ROBIN
    played.save()
    html = text(page(client, "crosstable", played.pk, lang=lang))
    assert word in html
    adler = html[html.index("Adler"):html.index("</tr>", html.index("Adler"))]
    # Adler's row: ×, 1 against Berger, nothing yet against Ced and Dorn, 1.0 points.
    # National rating (1830) and FIDE (none) in columns of their own.
    assert [c.split(">")[-1] for c in adler.split("</td>")[1:8]] == ["1830", "", "×", "1", "", "", points]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Rating evaluation", "Expected", "Factor", "rounded", "+17.3", "+17", "−14", "24.65", "0.300"]),
    ("de-at", ["Elo-Auswertung", "Erwartung", "Faktor", "gerundet", "+17,3", "+17", "−14", "24,65", "0,300"]),
])
def test_rating_evaluation_per_player_with_the_per_game_calculation(official_client, tournament, lang, words):
    from ratings.services import game_record_result

    game = Game.objects.get(round__tournament=tournament, board=1)
    game_record_result(game=game, result=Result.WHITE_WINS, user=None)
    html = text(page(official_client, "evaluation", tournament.pk, lang=lang))
    for word in words:
        assert word in html
    assert "<details>" in html and "Berger, Max" in html


def test_rating_evaluation_without_pool(client, home_club):
    tournament_round = RoundFactory()
    GameFactory(round=tournament_round)
    html = text(page(client, "evaluation", tournament_round.tournament.pk))
    assert "No rating pool has rated this tournament yet." in html


def test_standings_queries_do_not_grow_with_the_players(client, tournament, django_assert_max_num_queries):
    with django_assert_max_num_queries(9):
        assert page(client, "standings", tournament.pk).status_code == 200
    rnd = tournament.rounds.get(number=1)
    for board in range(3, 23):
        white, black = MemberFactory(), MemberFactory()
        TournamentPlayerFactory(tournament=tournament, member=white, start_rank=board * 2)
        TournamentPlayerFactory(tournament=tournament, member=black, start_rank=board * 2 + 1)
        GameFactory(round=rnd, board=board, white=white, black=black, result=Result.DRAW)
    with django_assert_max_num_queries(9):
        html = text(page(client, "standings", tournament.pk))
    assert html.count("<tr>") == 45  # header + 44 players
