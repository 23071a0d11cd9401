import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubrating.clubs.models import Member
from clubrating.interchange.pgn_import import games_import_pgn
from clubrating.interchange.views import PGN_SESSION_KEY
from clubrating.tournaments.models import Game, ResultChange, Tournament
from tests.language import speak

from ..conftest import PGN_DIR, db_counts
from .conftest import DE, EN, login_url

pytestmark = pytest.mark.django_db

URL = "/exchange/pgn/"

NEW_EVENT = """[Event "Vereinsabend"]
[Date "2026.03.07"]
[Round "1.1"]
[White "Huber, Anna"]
[Black "Gruber, Bernd"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Vereinsabend"]
[Date "2026.03.07"]
[Round "2.1"]
[White "Maier, Carl"]
[Black "Huber, Anna"]
[Result "1/2-1/2"]

"""

ROUND_TWO = """[Event "egal"]
[Date "2026.09.08"]
[Round "2.1"]
[White "Adler, Max"]
[Black "Dorn, Max"]
[Result "0-1"]

[Event "egal"]
[Date "2026.09.08"]
[Round "2.2"]
[White "Berger, Max"]
[Black "Ced, Max"]
[Result "1/2-1/2"]
"""

BAD = '[Event "X"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n*\n'


def upload(text: str | bytes, name: str = "games.pgn") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8") if isinstance(text, str) else text)


def preview(client, text, tournament=None, lang=EN):
    data = {"file": upload(text)}
    if tournament is not None:
        data["tournament"] = tournament.pk
    return speak(client, lang).post(URL, data)


def confirm(client, lang=EN):
    return speak(client, lang).post(URL, {"confirm": "1"})


def test_page_offers_the_tournaments_and_preselects_one(official_client, tournament):
    response = speak(official_client, EN).get(URL, {"tournament": tournament.pk})
    assert response.status_code == 200
    assert response.context["form"]["tournament"].value() == str(tournament.pk)
    option = f'<option value="{tournament.pk}" selected>Herbstturnier 2026</option>'
    assert option in response.content.decode()


def test_preview_creates_nothing_and_confirm_creates_what_it_showed(official_client, home_club):
    before = db_counts()
    response = preview(official_client, NEW_EVENT)
    assert db_counts() == before
    report = response.context["report"]
    summary = "Imported 2 games (1 with moves) into Vereinsabend; players: 0 matched, 3 new members."
    will = "2 games (1 with moves) will be imported into Vereinsabend; players: 0 matched, 3 new members."
    assert report == {
        "summary": summary, "preview": will, "done": False, "games": 2, "with_moves": 1,
        "tournaments": [{"name": "Vereinsabend", "created": True, "pk": report["tournaments"][0]["pk"]}],
        "matched": [], "created": ["Huber, Anna", "Gruber, Bernd", "Maier, Carl"],
    }
    page = response.content.decode()
    assert f'<p id="import-summary" class="lead">{will}</p>' in page
    assert "Import now" in page
    assert official_client.session[PGN_SESSION_KEY]["tournament"] is None

    response = confirm(official_client)
    assert response.status_code == 200
    assert response.context["report"]["summary"] == summary
    assert response.context["report"]["created"] == ["Huber, Anna", "Gruber, Bernd", "Maier, Carl"]
    after = db_counts()
    assert {k: after[k] - before[k] for k in after} == {
        "Club": 0, "Member": 3, "Tournament": 1, "TournamentPlayer": 3, "Round": 2, "Game": 2, "Bye": 0,
        "ResultChange": 2,
    }
    tournament = Tournament.objects.get(name="Vereinsabend")
    assert f'href="{reverse("tournaments:detail", args=[tournament.pk])}"' in response.content.decode()
    games = Game.objects.filter(round__tournament=tournament)
    assert sorted(games.values_list("round__number", "result")) == [
        (1, "1-0"), (2, "1/2"),
    ]
    assert set(ResultChange.objects.values_list("changed_by__username", flat=True)) == {"offi"}
    assert PGN_SESSION_KEY not in official_client.session


def test_games_go_into_the_chosen_tournament_with_members_matched(official_client, tournament):
    before = db_counts()
    response = preview(official_client, ROUND_TWO, tournament=tournament)
    assert db_counts() == before
    report = response.context["report"]
    assert report["summary"] == (
        "Imported 2 games (0 with moves) into Herbstturnier 2026; players: 4 matched, 0 new members."
    )
    assert report["tournaments"] == [{"name": "Herbstturnier 2026", "created": False, "pk": tournament.pk}]
    assert report["matched"] == ["Adler, Max", "Dorn, Max", "Berger, Max", "Ced, Max"]
    confirm(official_client)
    after = db_counts()
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {
        "Round": 1, "Game": 2, "ResultChange": 2,
    }
    assert list(
        Game.objects.filter(round__tournament=tournament, round__number=2)
        .order_by("board").values_list("white__last_name", "black__last_name", "result")
    ) == [("Adler", "Dorn", "0-1"), ("Berger", "Ced", "1/2")]


@pytest.mark.parametrize(
    "lang, message",
    [
        (EN, "Game 1 (line 1, A – B): the result * is not a finished game's result."),
        (DE, "Partie 1 (Zeile 1, A – B): * ist nicht das Ergebnis einer beendeten Partie."),
    ],
)
def test_malformed_file_shows_the_error_and_changes_nothing(official_client, tournament, lang, message):
    before = db_counts()
    response = preview(official_client, BAD, lang=lang)
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == [message]
    assert html.escape(message) in response.content.decode()
    assert db_counts() == before
    assert PGN_SESSION_KEY not in official_client.session


def test_a_file_refused_on_confirmation_changes_nothing(official_client, tournament):
    """The preview passed, but before confirming someone else imported the same round."""
    preview(official_client, ROUND_TWO, tournament=tournament)
    games_import_pgn(text=ROUND_TWO, tournament=tournament)
    before = db_counts()
    response = confirm(official_client)
    assert db_counts() == before
    assert (response.status_code, response["Location"]) == (302, URL)
    assert [str(m) for m in response.wsgi_request._messages] == [
        "Game 1 (line 1, Adler, Max – Dorn, Max): Adler, Max plays twice in round 2."
    ]


@pytest.mark.parametrize(
    "lang, message",
    [(EN, "The file is larger than 5 MB."), (DE, "Die Datei ist größer als 5 MB.")],
)
def test_file_over_5_mb_is_refused(official_client, lang, message):
    before = db_counts()
    big = NEW_EVENT.encode() + b" " * (5 * 1024 * 1024 + 1 - len(NEW_EVENT.encode()))
    response = speak(official_client, lang).post(URL, {"file": upload(big)})
    assert response.context["form"].errors["file"] == [message]
    assert db_counts() == before


def test_latin_1_file_is_read(official_client, home_club):
    text = NEW_EVENT.replace("Gruber, Bernd", "Müller, Jörg")
    response = speak(official_client, EN).post(URL, {"file": upload(text.encode("latin-1"))})
    assert response.context["report"]["created"] == ["Huber, Anna", "Müller, Jörg", "Maier, Carl"]
    confirm(official_client)
    assert Member.objects.filter(last_name="Müller", first_name="Jörg").count() == 1


def test_confirm_without_a_preview_imports_nothing(official_client, home_club):
    before = db_counts()
    response = confirm(official_client)
    assert (response.status_code, response["Location"]) == (302, URL)
    assert [str(m) for m in response.wsgi_request._messages] == ["Nothing to import: upload the file again."]
    assert db_counts() == before


def test_visitor_goes_to_login_and_member_is_refused(client, plain_user, home_club):
    before = db_counts()
    assert client.get(URL)["Location"] == login_url(URL)
    response = client.post(URL, {"file": upload(NEW_EVENT)})
    assert (response.status_code, response["Location"]) == (302, login_url(URL))
    client.force_login(plain_user)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"file": upload(NEW_EVENT)}).status_code == 403
    assert client.post(URL, {"confirm": "1"}).status_code == 403
    assert db_counts() == before


def test_real_round_robin_file_through_the_page(official_client, home_club):
    before = db_counts()
    data = {
        "file": upload((PGN_DIR / "uzchess-cup-2025.pgn").read_bytes()),
        "tournament_name": " UzChess  Cup 2025",
    }
    response = speak(official_client, EN).post(URL, data)
    summary = "Imported 45 games (0 with moves) into UzChess Cup 2025; players: 0 matched, 10 new members."
    assert response.context["report"]["summary"] == summary
    assert db_counts() == before
    assert confirm(official_client).context["report"]["summary"] == summary
    after = db_counts()
    assert (after["Game"] - before["Game"], after["Member"] - before["Member"]) == (45, 10)


def test_chosen_tournament_and_typed_name_exclude_each_other(official_client, tournament):
    before = db_counts()
    response = speak(official_client, DE).post(
        URL, {"file": upload(ROUND_TWO), "tournament": tournament.pk, "tournament_name": "Neu"}
    )
    assert response.context["form"].non_field_errors() == [
        "Wählen Sie ein Turnier oder geben Sie einen Namen ein, nicht beides."
    ]
    assert db_counts() == before
