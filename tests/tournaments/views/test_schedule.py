"""A round robin is paired as a whole Berger schedule with dates (editable), and the create form
asks only what the chosen system uses, refusing the rest instead of correcting it silently."""

import datetime

import pytest
from django.urls import reverse

from clubrating.tournaments import services
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import Game, Result, ResultChange, Round, Tournament, TournamentKind
from tests.factories import MemberFactory, TournamentFactory
from tests.language import speak

from .helpers import page, text

pytestmark = pytest.mark.django_db

D = datetime.date


def _round_robin(players=4, **kwargs):
    tournament = TournamentFactory(kind=TournamentKind.ROUND_ROBIN, start_date=D(2026, 9, 4),
                                   round_interval_days=7, rounds_count=1, **kwargs)
    for number in range(1, players + 1):
        services.player_register(tournament=tournament, member=MemberFactory(last_name=f"P{number}"),
                                 rating=2100 - 100 * number)
    tournament.refresh_from_db()
    return tournament


def _schedule(tournament):
    return [(rnd.number, rnd.date,
             [(g.white.last_name, g.black.last_name) for g in rnd.games.order_by("board")])
            for rnd in tournament.rounds.order_by("number")]


def test_the_whole_berger_schedule_is_paired_at_once_with_its_dates():
    tournament = _round_robin()
    rounds = services.schedule_pair(tournament=tournament, dates={2: D(2026, 9, 12)})
    assert [r.number for r in rounds] == [1, 2, 3]
    # FIDE's Berger table for 4 (C.05 Annex 1): 1-4, 2-3 / 4-3, 1-2 / 2-4, 3-1.
    assert _schedule(tournament) == [
        (1, D(2026, 9, 4), [("P1", "P4"), ("P2", "P3")]),
        (2, D(2026, 9, 12), [("P4", "P3"), ("P1", "P2")]),
        (3, D(2026, 9, 18), [("P2", "P4"), ("P3", "P1")]),
    ]
    with pytest.raises(TournamentRefused, match="Alle 3 Runden sind bereits ausgelost."):
        services.schedule_pair(tournament=tournament)


def test_a_schedule_date_outside_the_tournament_pairs_nothing():
    tournament = _round_robin(end_date=D(2026, 9, 30))
    with pytest.raises(TournamentRefused, match="04.09.2026 – 30.09.2026"):
        services.schedule_pair(tournament=tournament, dates={3: D(2026, 10, 2)})
    assert not Game.objects.filter(round__tournament=tournament).exists()


def test_a_swiss_is_not_paired_as_a_schedule():
    with pytest.raises(TournamentRefused):
        services.schedule_pair(tournament=TournamentFactory(kind=TournamentKind.SWISS))


def test_withdrawing_from_a_paired_round_robin_turns_the_open_games_into_forfeits():
    tournament = _round_robin()
    services.schedule_pair(tournament=tournament)
    first = Game.objects.get(round__tournament=tournament, round__number=1, board=1)
    services.game_results_write(games=[first], results=[(Result.WHITE_WINS, Result.WHITE_WINS)])
    services.player_withdraw(player=tournament.players.get(member__last_name="P4"), from_round=2)
    services.player_withdraw(player=tournament.players.get(member__last_name="P2"), from_round=3)
    results = [(g.round.number, g.white.last_name, g.black.last_name, g.result, g.rated_result)
               for g in Game.objects.filter(round__tournament=tournament).order_by("round__number", "board")]
    assert results == [
        (1, "P1", "P4", "1-0", "1-0"), (1, "P2", "P3", "", ""),
        (2, "P4", "P3", "-+", "-+"), (2, "P1", "P2", "", ""),
        (3, "P2", "P4", "--", "--"), (3, "P3", "P1", "", ""),
    ]
    # 1-0, then P4's forfeits (rounds 2 and 3), then P2's: round 3 becomes a double forfeit.
    assert ResultChange.objects.filter(game__round__tournament=tournament).count() == 4
    # A round in which the player already has a result cannot be withdrawn from.
    with pytest.raises(TournamentRefused, match="Runde 1 hat schon ein Ergebnis dieses Spielers"):
        services.player_withdraw(player=tournament.players.get(member__last_name="P1"), from_round=1)


@pytest.mark.parametrize(("lang", "words"), [
    ("de-at", ["Spielplan", "3 Runden für 4 angemeldete Spieler", "Runde 1", "04.09.2026", "11.09.2026",
               "18.09.2026", "Spielplan auslosen"]),
    ("en", ["Schedule", "3 rounds for 4 registered players", "Round 1", "2026-09-04", "2026-09-11",
            "2026-09-18", "Pair the schedule"]),
])
def test_the_pair_page_of_a_round_robin_shows_the_schedule_with_dates(official_client, home_club, lang,
                                                                      words):
    tournament = _round_robin()
    html = text(page(official_client, "pair", tournament.pk, lang=lang))
    for word in words:
        assert word in html
    assert 'id="pair-form"' not in html  # no single-round pairing


def test_pairing_the_schedule_on_its_page_and_changing_a_date_afterwards(official_client, home_club):
    tournament = _round_robin()
    speak(official_client, "de-at")
    url = reverse("tournaments:pair", args=[tournament.pk])
    response = official_client.post(url, {"action": "pair", "pair-round-1": "05.09.2026", "pair-round-2": "",
                                          "pair-round-3": "20.09.2026"}, follow=True)
    assert "Die Runden 1 bis 3 sind ausgelost." in text(response)
    assert [(n, day) for n, day, _boards in _schedule(tournament)] == [
        (1, D(2026, 9, 5)), (2, D(2026, 9, 11)), (3, D(2026, 9, 20))]
    html = text(official_client.get(url))
    assert "Spielplan auslosen" not in html and 'id="schedule-dates-form"' in html
    response = official_client.post(url, {"action": "dates", "dates-round-1": "05.09.2026",
                                          "dates-round-2": "13.09.2026", "dates-round-3": "20.09.2026"},
                                     follow=True)
    assert "Die Termine des Spielplans sind gespeichert." in text(response)
    assert Round.objects.get(tournament=tournament, number=2).date == D(2026, 9, 13)


def test_a_bad_date_on_the_schedule_is_refused_and_changes_nothing(official_client, home_club):
    tournament = _round_robin(end_date=D(2026, 9, 30))
    speak(official_client, "de-at")
    response = official_client.post(reverse("tournaments:pair", args=[tournament.pk]),
                                    {"action": "pair", "pair-round-1": "31.09.2026"})
    assert "Bitte ein gültiges Datum eingeben." in text(response)
    response = official_client.post(reverse("tournaments:pair", args=[tournament.pk]),
                                    {"action": "pair", "pair-round-3": "01.10.2026"}, follow=True)
    assert "Das Datum muss innerhalb des Turniers liegen (04.09.2026 – 30.09.2026)." in text(response)
    assert not Game.objects.filter(round__tournament=tournament).exists()


# --- the create form ----------------------------------------------------------------------------

BASE = {"name": "Klubmeisterschaft", "category": "standard", "start_date": "2026-12-01", "rated": "on"}


def _create(client, lang="de-at", **data):
    speak(client, lang)
    return client.post(reverse("tournaments:create"), {**BASE, **data})


def test_the_create_form_marks_what_only_some_systems_use(official_client, home_club):
    html = text(page(official_client, "create", lang="de-at"))
    assert 'name="rounds_count" value=' not in html  # no number shown before the director gives one
    assert 'data-kinds="swiss"' in html and 'data-kinds="round_robin team"' in html
    assert 'data-preset-kinds="rr-fide:round_robin rr-sb:round_robin swiss-bh:swiss swiss-fide:swiss ' \
           'team-sb:team"' in html
    assert "js/tournament-form.js" in html


@pytest.mark.parametrize(("lang", "field", "data", "error"), [
    ("de-at", "rounds_count", {"kind": "round_robin", "rounds_count": "1", "tiebreak_preset": "auto"},
     "Die Rundenzahl ergibt sich aus den Spielern (bei einem Mannschaftsbewerb aus den Mannschaften); "
     "lassen Sie das Feld leer."),
    ("en", "rounds_count", {"kind": "round_robin", "rounds_count": "7", "tiebreak_preset": "auto"},
     "The number of rounds follows from the players (in a team competition, the teams); "
     "leave the field empty."),
    ("de-at", "tiebreak_preset", {"kind": "round_robin", "tiebreak_preset": "swiss-bh"},
     "Diese Auswahl gehört zu einem anderen System; wählen Sie eine für „Rundenturnier“."),
    ("en", "tiebreak_preset", {"kind": "swiss", "rounds_count": "5", "tiebreak_preset": "rr-fide"},
     "This set belongs to another system; choose one for “Swiss system”."),
    ("de-at", "initial_colour", {"kind": "round_robin", "initial_colour": "b", "tiebreak_preset": "auto"},
     "Die Farbe von Spieler 1 in Runde 1 wird nur im Schweizer System gewählt; die Berger-Tabellen legen "
     "alle Farben fest."),
    ("de-at", "double_round_robin", {"kind": "swiss", "rounds_count": "5", "double_round_robin": "on",
                                     "tiebreak_preset": "auto"},
     "Nur ein Rundenturnier oder ein Mannschaftsbewerb wird doppelrundig gespielt."),
])
def test_the_create_form_refuses_what_the_system_does_not_use(official_client, home_club, lang, field, data,
                                                              error):
    response = _create(official_client, lang=lang, **data)
    assert response.status_code == 200
    assert error in text(response)
    assert response.context["form"].errors[field] == [error]
    assert not Tournament.objects.exists()


def test_a_round_robin_is_created_without_a_number_of_rounds(official_client, home_club):
    response = _create(official_client, kind="round_robin", tiebreak_preset="rr-sb", double_round_robin="on")
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    stored = (tournament.rounds_count, tournament.tiebreaks, tournament.double_round_robin,
              tournament.initial_colour)
    assert stored == (1, "SB,DE,WIN,KS", True, "w")
