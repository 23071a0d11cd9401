"""Result entry: one board saved per htmx request, rating changes shown, errors translated."""

import re

import pytest
from django.urls import reverse

from clubrating.tournaments.forms import confirmation_of
from clubrating.tournaments.models import Game, Result, ResultChange
from ratings.models import RatingRecord
from tests.factories import GameFactory, MemberFactory, TournamentPlayerFactory
from tests.language import speak

from .helpers import page, text

pytestmark = pytest.mark.django_db


def board(tournament, number=1):
    return Game.objects.get(round__tournament=tournament, board=number)


def save(client, game, result, lang="en", htmx=True, seen=None, confirm=True, reason=""):
    """POST one board; ``confirm`` answers the question that a change of an entered result asks."""
    url = reverse("tournaments:board_result", args=[game.round.tournament_id, game.round.number, game.pk])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    speak(client, lang)
    data = {"result": result, "seen": game.result if seen is None else seen, "reason": reason}
    if confirm:
        data["confirm"] = confirmation_of(result)
    return client.post(url, data, **headers)


@pytest.mark.parametrize(("lang", "heading", "keys"), [
    ("en", "Results round 1", "saves the board and moves to the next one"),
    ("de-at", "Ergebnisse Runde 1", "speichert das Brett und springt zum nächsten"),
])
def test_round_page_lists_every_board_with_its_control_and_the_keys(official_client, tournament, lang,
                                                                     heading, keys):
    html = text(page(official_client, "results", tournament.pk, 1, lang=lang))
    assert heading in html
    assert keys in html
    assert html.count("<form id=\"board-") == 2
    assert "Adler, Max" in html and "Dorn, Max" in html
    for label in ("1-0", "½-½", "0-1", "+/−", "−/+", "−/−"):
        assert label in html
    assert 'data-keys="= 5 r d"' in html
    assert "js/result-entry.js" in html
    # The first board without a result has the focus.
    assert html.index("autofocus") < html.index('id="board-' + str(board(tournament, 2).pk))


@pytest.mark.parametrize(("lang", "taught"), [
    ("en", "17w 1-0, 17d ½-½, 17b 0-1, 17+ or 17- forfeit"),
    ("de-at", "17w 1-0, 17r ½-½, 17s 0-1, 17+ oder 17- kampflos"),
])
def test_the_help_teaches_the_keys_of_the_pages_language_and_they_work(official_client, tournament, lang,
                                                                        taught):
    # The English help taught the German r (remis) and s (schwarz).
    html = text(page(official_client, "results", tournament.pk, 1, lang=lang))
    help_text = re.search(r'id="quick-entry-help">([^<]*)<', html).group(1)
    assert taught in help_text
    keys = {key for found in re.findall(r'data-keys="([^"]*)"', html) for key in found.split()}
    quick_keys = re.findall(r"17(\S)", help_text)
    listed = re.findall(r"<kbd>([^<]+)</kbd>", html[html.index('id="result-keys"'):])
    assert len(quick_keys) == 5 and set(quick_keys) <= keys
    assert {key for key in listed if key not in ("⌫", "Del", "Enter")} <= keys
    other = {"en": ("17r", "17s", "<kbd>r</kbd>", "<kbd>s</kbd>"),
             "de-at": ("17d", "17b", "<kbd>d</kbd>", "<kbd>b</kbd>")}[lang]
    assert not [word for word in other if word in html]


def test_saving_a_board_returns_the_row_with_both_rating_changes(official_client, official, tournament):
    game = board(tournament)
    response = save(official_client, game, Result.WHITE_WINS)
    html = text(response)
    assert response.status_code == 200
    assert html.startswith("\n<form id=\"board-") or html.lstrip().startswith('<form id="board-')
    assert "data-saved" in html
    # 1830 beats 1980: E = 0.2997, F = 24.649 -> +17.26; 1980: F = 20.164 -> -14.12 (docs/rules.md §1.1-1.3).
    assert "+17.3" in html and "−14.1" in html
    game.refresh_from_db()
    assert (game.result, game.rated_result) == ("1-0", "1-0")
    change = ResultChange.objects.get(game=game)
    assert (change.old_result, change.new_result, change.changed_by) == ("", "1-0", official)
    assert RatingRecord.objects.filter(game=game).count() == 2


def test_rating_changes_use_the_austrian_number_format_in_german(official_client, tournament):
    html = text(save(official_client, board(tournament), Result.WHITE_WINS, lang="de-at"))
    assert "+17,3" in html and "−14,1" in html
    assert "gespeichert" in html


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Choose one of the results offered."),
    ("de-at", "Bitte eines der angebotenen Ergebnisse wählen."),
])
def test_an_invalid_result_is_shown_next_to_the_board_and_saves_nothing(official_client, tournament, lang,
                                                                         message):
    game = board(tournament)
    html = text(save(official_client, game, "2-0", lang=lang))
    assert message in html
    assert "board-errors" in html
    game.refresh_from_db()
    assert game.result == ""
    assert not ResultChange.objects.exists()
    assert not RatingRecord.objects.exists()


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Another official has saved this board meanwhile: it now holds ½-½. Nothing of yours was saved"),
    ("de-at", "Ein anderer Funktionär hat dieses Brett inzwischen gespeichert: es steht jetzt ½-½. "
              "Von Ihrer Eingabe wurde nichts gespeichert"),
])
def test_a_result_changed_meanwhile_by_someone_else_is_not_overwritten(official_client, tournament, lang,
                                                                        message):
    game = board(tournament)
    save(official_client, game, Result.DRAW)
    html = text(save(official_client, game, Result.BLACK_WINS, lang=lang, seen=""))
    assert message in html
    assert "data-saved" not in html
    # The row now carries what the board holds: saving again from it is a deliberate correction.
    assert '<input type="hidden" name="seen" value="1/2">' in html
    game.refresh_from_db()
    assert game.result == Result.DRAW
    assert ResultChange.objects.count() == 1


def test_a_player_paired_twice_in_the_round_is_refused(official_client, tournament):
    game = board(tournament)
    intruder = MemberFactory(last_name="Eder")
    TournamentPlayerFactory(tournament=tournament, member=intruder, start_rank=5)
    GameFactory(round=game.round, board=3, white=intruder, black=game.white, result="")
    html = text(save(official_client, game, Result.WHITE_WINS))
    assert "A player of this board is paired on another board of this round." in html
    game.refresh_from_db()
    assert game.result == ""


def test_a_correction_is_saved_the_same_way_and_recorded(official_client, tournament):
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    game.refresh_from_db()
    html = text(save(official_client, game, Result.DRAW))
    # 1830 draws 1980: (0.5 - 0.2997) x 24.649 = +4.94 / (0.5 - 0.7003) x 20.164 = -4.04 (seed: +5).
    assert "+4.9" in html and "−4.0" in html
    history = list(ResultChange.objects.filter(game=game).values_list("old_result", "new_result"))
    assert history == [("", "1-0"), ("1-0", "1/2")]


def test_forfeits_are_scored_but_not_rated(official_client, tournament):
    game = board(tournament)
    html = text(save(official_client, game, Result.WHITE_FORFEIT_WIN))
    assert "data-saved" in html
    game.refresh_from_db()
    assert game.result == "+-"
    assert not RatingRecord.objects.filter(game=game).exists()


def test_without_javascript_the_form_posts_and_redirects_back(official_client, tournament):
    game = board(tournament)
    response = save(official_client, game, Result.BLACK_WINS, htmx=False)
    assert response.status_code == 302
    assert response.url == reverse("tournaments:results", args=[tournament.pk, 1])
    game.refresh_from_db()
    assert game.result == "0-1"


def test_clearing_a_result_deletes_its_rating_records(official_client, tournament):
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    game.refresh_from_db()
    save(official_client, game, Result.NOT_PLAYED)
    game.refresh_from_db()
    assert game.result == ""
    assert not RatingRecord.objects.filter(game=game).exists()


@pytest.mark.parametrize(("lang", "title", "old"), [
    ("en", "History of this result", "not yet played"),
    ("de-at", "Verlauf dieses Ergebnisses", "noch nicht gespielt"),
])
def test_the_game_page_shows_the_history_to_officials(official_client, tournament, lang, title, old):
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    game.refresh_from_db()
    save(official_client, game, Result.BLACK_WINS)
    html = text(page(official_client, "game", game.pk, lang=lang))
    assert title in html
    start = html.index('id="result-history"')
    history = html[start:html.index("</table>", start)]
    newest, oldest = history.split("<tr>")[2:]
    assert "offi" in newest and "offi" in oldest
    assert newest.index("1-0") < newest.index("0-1")
    assert oldest.index(old) < oldest.index("1-0")


@pytest.mark.parametrize(("lang", "changes"), [
    ("de-at", "Standard: +17,3 / −14,1"), ("en", "Standard: +17.3 / −14.1"),
])
def test_the_game_page_shows_the_changes_signed_to_one_decimal(official_client, client, tournament, lang,
                                                               changes):
    # 1830 beats 1980: +17.26 and -14.12 (docs/rules.md §1.1-1.3), shown as the result entry shows them;
    # the page showed the raw floats ("17,2596… / -14,12…").
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    html = text(page(client, "game", game.pk, lang=lang))
    assert f"<li>{changes}</li>" in html


def test_visitors_see_the_game_but_not_its_history(client, tournament):
    html = text(page(client, "game", board(tournament).pk))
    assert "Adler, Max – Berger, Max" in html
    assert "result-history" not in html


def test_the_correction_form_can_rate_a_forfeit_as_played(official_client, tournament):
    game = board(tournament)
    url = reverse("tournaments:game_correct", args=[game.pk])
    response = official_client.post(url, {"result": "+-", "rated_result": "1-0", "seen": ""})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.result, game.rated_result) == ("+-", "1-0")
    assert RatingRecord.objects.filter(game=game).count() == 2


def test_the_correction_form_refuses_a_rated_result_for_a_played_score(official_client, tournament):
    game = board(tournament)
    url = reverse("tournaments:game_correct", args=[game.pk])
    speak(official_client, "en")
    response = official_client.post(url, {"result": "1-0", "rated_result": "0-1", "seen": ""}, follow=True)
    assert "A game scored as played over the board is rated as scored." in text(response)
    game.refresh_from_db()
    assert game.result == ""


@pytest.mark.parametrize("htmx", [True, False])
def test_changing_an_entered_result_asks_first_and_keeps_the_reason(official_client, tournament, htmx):
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    game.refresh_from_db()
    html = text(save(official_client, game, Result.DRAW, htmx=htmx, confirm=False))
    assert "Board 1 already has the result 1-0. Change it to ½-½?" in html
    assert 'name="confirm" value="1/2"' in html and 'name="reason"' in html
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS and ResultChange.objects.filter(game=game).count() == 1
    save(official_client, game, Result.DRAW, htmx=htmx, reason="Scoresheet misread")
    game.refresh_from_db()
    assert game.result == Result.DRAW
    assert list(ResultChange.objects.filter(game=game).values_list("new_result", "reason")) == [
        (Result.WHITE_WINS, ""), (Result.DRAW, "Scoresheet misread")]
    history = text(page(official_client, "game", game.pk, lang="de-at"))
    assert "Grund" in history and "Scoresheet misread" in history


def test_a_first_result_needs_no_confirmation(official_client, tournament):
    game = board(tournament)
    html = text(save(official_client, game, Result.WHITE_WINS, confirm=False))
    assert "data-saved" in html and "data-confirm" not in html


def test_a_cancelled_change_draws_the_board_unchanged(official_client, tournament):
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    url = reverse("tournaments:board_result", args=[tournament.pk, 1, game.pk])
    html = text(official_client.get(url, HTTP_HX_REQUEST="true"))
    one_zero = html[html.index('value="1-0"'):html.index('value="1/2"')]
    assert "checked" in one_zero
    assert "data-confirm" not in html


def test_a_board_under_another_round_or_tournament_is_not_found(official_client, tournament):
    game = board(tournament)
    elsewhere = ([tournament.pk, 2, game.pk], [tournament.pk + 1, 1, game.pk],
                 [tournament.pk, 1, game.pk + 100])
    for args in elsewhere:
        url = reverse("tournaments:board_result", args=args)
        assert official_client.get(url, HTTP_HX_REQUEST="true").status_code == 404
        form = {"result": Result.DRAW, "seen": ""}
        assert official_client.post(url, form, HTTP_HX_REQUEST="true").status_code == 404
    game.refresh_from_db()
    assert game.result == Result.NOT_PLAYED


@pytest.mark.parametrize("htmx", [True, False])
def test_another_result_typed_while_the_question_is_open_is_asked_again(official_client, tournament, htmx):
    # The question about 0-1 is open (its answer in the form); a draw typed meanwhile ("4=" in the
    # quick entry) sends that answer with the draw: it is asked about, not saved.
    game = board(tournament)
    save(official_client, game, Result.WHITE_WINS)
    game.refresh_from_db()
    url = reverse("tournaments:board_result", args=[game.round.tournament_id, game.round.number, game.pk])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = official_client.post(url, {"result": Result.DRAW, "seen": Result.WHITE_WINS,
                                          "confirm": confirmation_of(Result.BLACK_WINS)}, **headers)

    html = text(response)
    assert "Board 1 already has the result 1-0. Change it to ½-½?" in html
    assert 'name="confirm" value="1/2"' in html
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS and ResultChange.objects.filter(game=game).count() == 1
