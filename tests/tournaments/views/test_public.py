"""Every tournament page in both languages, with its content."""

import re

import pytest
from django.urls import reverse

from clubrating.tournaments.models import Game, Result, TournamentKind
from tests.factories import ByeFactory, GameFactory, MemberFactory, RoundFactory, TournamentPlayerFactory

from .helpers import LANGS, page, text

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


def test_a_round_names_a_player_who_is_not_registered(client, played):
    """A game of a member who is not (or no longer) registered: his name comes all the same,
    without starting number or rating."""
    guest = MemberFactory(last_name="Gast", first_name="Gustav")
    other = MemberFactory(last_name="Zach", first_name="Max")
    GameFactory(round=played.rounds.get(number=1), board=3, white=guest, black=other, result=Result.DRAW)
    html = text(page(client, "round", played.pk, 1))
    assert cells(html, "Gast, Gustav") == [
        "3", "—", "Gast, Gustav", "—", "0.0", "½-½", "0.0", "Zach, Max", "—", "—"]
    assert cells(html, "Adler, Max") == [
        "1", "1", "Adler, Max", "1830", "0.0", "1-0", "0.0", "Berger, Max", "1980", "2"]


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


def cells(html: str, name: str) -> list[str]:
    """The texts of the cells of the first row that names ``name``."""
    row = html[html.rindex("<tr>", 0, html.index(name)):html.index("</tr>", html.index(name))]
    return [re.sub(r"<[^>]+>", "", c).strip() for c in row.split("</td>")[:-1]]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Crosstable", "Progress table", "Rk.", "FIDE", "Pts.", "Rd. 1", "BH", "SB"]),
    ("de-at", ["Kreuztabelle", "Fortschrittstabelle", "Rk.", "FIDE", "Pkt.", "Rd. 1", "BH", "SB"]),
])
def test_crosstable_and_progress_table_of_a_swiss(client, played, lang, words):
    html = text(page(client, "crosstable", played.pk, lang=lang))
    for word in words:
        assert f">{word}<" in html
    # Rank order: Adler 1 point, Ced and Dorn ½ (rank 2, shared), Berger 0 (rank 4); opponents by rank.
    white, black = ("w", "b") if lang == "en" else ("w", "s")
    half = "0.5" if lang == "en" else "0,5"
    one = "1.0" if lang == "en" else "1,0"
    club = "Schachklub Heimat"
    zero = "0.0" if lang == "en" else "0,0"
    assert cells(html, "Adler, Max")[:8] == ["1", "1", "Adler, Max", "1830", "—", club, f"4{white}1", one]
    assert cells(html, "Berger, Max")[:8] == ["4", "2", "Berger, Max", "1980", "—", club, f"1{black}0", zero]
    assert cells(html, "Ced, Max")[6:8] == [f"2{white}½", half]
    progress = html[html.index('id="progress"'):]
    assert cells(progress, "Adler, Max") == ["1", "Adler, Max", "1830", "—", one, one]


@pytest.mark.parametrize("lang", LANGS)
def test_the_progress_table_has_a_page_of_its_own(client, played, lang):
    one, half = ("1.0", "0.5") if lang == "en" else ("1,0", "0,5")
    html = text(page(client, "progress", played.pk, lang=lang))
    assert cells(html, "Adler, Max") == ["1", "Adler, Max", "1830", "—", one, one]
    assert cells(html, "Dorn, Max") == ["2", "Dorn, Max", "1820", "—", half, half]
    assert reverse("tournaments:progress", args=[played.pk]) in text(page(client, "crosstable", played.pk))


@pytest.mark.parametrize("name", ["standings", "crosstable", "progress"])
def test_the_long_tables_escape_what_users_typed(client, played, name):
    # The tables' rows are laid out in the view; a club's and a member's name stay text.
    club = played.members[0].club
    club.name = "<b>Heimat</b> & Co"
    club.save()
    member = played.members[0]
    member.last_name = "<i>Adler</i>"
    member.save()
    html = text(page(client, name, played.pk))
    assert "<b>" not in html and "<i>" not in html
    assert "&lt;i&gt;Adler&lt;/i&gt;, Max" in html
    if name != "progress":  # the progress table has no club column
        assert "&lt;b&gt;Heimat&lt;/b&gt; &amp; Co" in html


@pytest.mark.parametrize(("lang", "word", "points"), [
    ("en", "Crosstable", "1.0"), ("de-at", "Kreuztabelle", "1,0"),
])
def test_crosstable_for_a_round_robin(client, played, lang, word, points):
    played.kind = TournamentKind.ROUND_ROBIN
    played.tiebreaks = "DE,SB"  # the 2026 regulations forbid Buchholz in a round robin (C.07 art. 8)
    played.save()
    html = text(page(client, "crosstable", played.pk, lang=lang))
    assert word in html
    # Rank order (Adler, Ced, Dorn, Berger); Adler: ×, nothing yet against Ced and Dorn, 1 against Berger.
    # National rating (1830) and FIDE (none) in columns of their own.
    zero = "0.0" if lang == "en" else "0,0"
    assert cells(html, "Adler, Max")[:12] == [
        "1", "1", "Adler, Max", "1830", "—", "Schachklub Heimat", "×", "", "", "1", points, zero]
    assert cells(html, "Berger, Max")[6:10] == ["0", "", "", "×"]


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
    assert 'data-bs-toggle="collapse" data-bs-target="#calc-1-' in html and "Berger, Max" in html
    assert '<tr class="collapse evaluation-games" id="calc-1-1">' in html


@pytest.fixture
def evaluated(tournament, monkeypatch):
    """Board 1 played and rated (Adler 1830 beat Berger 1980: E(D) 0.300 for Adler); the page
    treated as a big tournament's, whose calculations come on demand."""
    from clubrating.tournaments.views import public
    from ratings.services import game_record_result

    game_record_result(game=Game.objects.get(round__tournament=tournament, board=1), result=Result.WHITE_WINS)
    monkeypatch.setattr(public, "EVALUATION_INLINE_PLAYERS", 1)
    return tournament


def test_a_big_evaluation_brings_a_players_calculation_on_demand(client, evaluated):
    adler = evaluated.members[0]
    html = text(page(client, "evaluation", evaluated.pk))
    # The figures are there, the per-game calculation is not; each name asks for its own.
    assert "+17.3" in html and "0.300" not in html
    assert (f'href="?player={adler.pk}#calc-1-1" data-bs-toggle="collapse" data-bs-target="#calc-1-1"'
            in html)
    assert f'hx-get="?player={adler.pk}&amp;pool={evaluated.pool.pk}" hx-target="#calc-1-1-games"' in html
    assert ('<tr class="collapse evaluation-games" id="calc-1-1">'
            '<td colspan="12" id="calc-1-1-games"></td>') in html

    fragment = text(client.get(reverse("tournaments:evaluation", args=[evaluated.pk]),
                               {"player": adler.pk, "pool": evaluated.pool.pk}, HTTP_HX_REQUEST="true"))
    assert "<html" not in fragment and fragment.count("<tr>") == 2  # the heading and the one game
    assert cells(fragment, "Berger, Max") == ["1", "Berger, Max (w)", "1980", "−150", "1.0", "0.300", "24.65",
                                              "+17.3"]


def test_a_big_evaluation_shows_a_players_calculation_without_javascript(client, evaluated):
    adler, berger = evaluated.members[:2]
    html = text(page(client, "evaluation", evaluated.pk, player=adler.pk))
    assert '<tr class="collapse show evaluation-games" id="calc-1-1">' in html
    assert ('<tr class="collapse evaluation-games" id="calc-1-2">'
            '<td colspan="12" id="calc-1-2-games"></td>') in html
    assert html.count("0.300") == 1 and "0.700" not in html
    everything = text(page(client, "evaluation", evaluated.pk, all=1))
    assert everything.count('<tr class="collapse show evaluation-games"') == 2
    assert "0.300" in everything and "0.700" in everything and '<a href="?all=1">' not in everything


def test_rating_evaluation_without_pool(client, home_club):
    tournament_round = RoundFactory()
    GameFactory(round=tournament_round)
    html = text(page(client, "evaluation", tournament_round.tournament.pk))
    assert "No rating pool has rated this tournament yet." in html


def test_standings_queries_do_not_grow_with_the_players(client, tournament, django_assert_max_num_queries):
    # Seven for the standings, two for the version of the live table, two for the pool that
    # rates the tournament (the heading of the national rating column), and the version of the
    # cached table (its rows and the latest change of a member and a club: views/_cache.py).
    with django_assert_max_num_queries(15):
        assert page(client, "standings", tournament.pk).status_code == 200
    rnd = tournament.rounds.get(number=1)
    for board in range(3, 23):
        white, black = MemberFactory(), MemberFactory()
        TournamentPlayerFactory(tournament=tournament, member=white, start_rank=board * 2)
        TournamentPlayerFactory(tournament=tournament, member=black, start_rank=board * 2 + 1)
        GameFactory(round=rnd, board=board, white=white, black=black, result=Result.DRAW)
    with django_assert_max_num_queries(15):
        html = text(page(client, "standings", tournament.pk))
    assert html.count("<tr>") == 45  # header + 44 players


def test_an_unusable_tiebreak_list_gives_points_only_with_a_warning(client, played):
    played.tiebreaks = "BH,XX"
    played.save()
    warning = "The tie-breaks “BH,XX” cannot be computed (XX); points only."
    for name in ("standings", "crosstable", "progress"):
        html = text(page(client, name, played.pk))
        assert warning in html, name
        assert ">BH<" not in html, name
    html = text(page(client, "crosstable", played.pk))
    assert cells(html, "Adler, Max")[:8] == [
        "1", "1", "Adler, Max", "1830", "—", "Schachklub Heimat", "4w1", "1.0"]


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Tie-breaks by FIDE C.07, edition 2026, in this order: BH, SB"),
    ("de-at", "Feinwertungen nach FIDE C.07, Ausgabe 2026, in dieser Reihenfolge: BH, SB"),
])
def test_standings_name_the_edition_of_the_tiebreak_regulations(client, played, lang, line):
    assert line in text(page(client, "standings", played.pk, lang=lang))

@pytest.mark.parametrize("big", [False, True])
def test_the_evaluations_rp_shows_the_rated_games_it_rests_on(client, evaluated, monkeypatch, big):
    from clubrating.tournaments.views import public

    if not big:
        monkeypatch.setattr(public, "EVALUATION_INLINE_PLAYERS", 40)
    html = text(page(client, "evaluation", evaluated.pk))
    # Adler beat Berger (1980): 1980 + dp(1.0) = 2780, on one rated game; Berger 1830 − 800 = 1030.
    assert cells(html, "Adler, Max")[8] == "2780 (1)"
    assert ('<span class="rp">1030</span> <span class="small text-muted rp-games" '
            'title="rated games it rests on">(1)</span>') in html
