"""A tournament is finished when its last round is complete, and every page says so: the start
page and the tournament list, the pair page (no next round offered), undoing a pairing only
where no result exists."""

import datetime
import re

import pytest
from django.urls import reverse

from clubrating.tournaments import selectors, services
from clubrating.tournaments.errors import TournamentRefused
from clubrating.tournaments.models import Game, Result, Round, Tournament, TournamentKind
from tests.factories import GameFactory, RoundFactory, TournamentFactory, TournamentPlayerFactory
from tests.language import speak

from .helpers import page, text

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 25)


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: TODAY)


def _event(*, rounds=5, open_last=0, name="Herbstblitz", kind=TournamentKind.SWISS):
    """A 4-player event of ``rounds`` rounds, all paired, running until 31.12.2026; the last
    round's last ``open_last`` boards without result."""
    tournament = TournamentFactory(name=name, kind=kind, rounds_count=rounds,
                                   start_date=datetime.date(2026, 10, 1),
                                   end_date=datetime.date(2026, 12, 31))
    players = [TournamentPlayerFactory(tournament=tournament, start_rank=rank) for rank in range(1, 5)]
    for number in range(1, rounds + 1):
        rnd = RoundFactory(tournament=tournament, number=number, date=datetime.date(2026, 10, number))
        for board, (white, black) in enumerate([(0, 1), (2, 3)], start=1):
            done = number < rounds or board <= 2 - open_last
            GameFactory(round=rnd, board=board, white=players[white].member, black=players[black].member,
                        result=Result.DRAW if done else Result.NOT_PLAYED)
    return tournament


def test_finished_means_the_last_round_is_complete():
    finished = _event(name="fertig")
    _event(name="letzte Runde offen", open_last=1)
    partly = TournamentFactory(name="Runde 3 von 5", rounds_count=5)
    RoundFactory(tournament=partly, number=3)
    GameFactory(round=partly.rounds.get(), result=Result.WHITE_WINS)
    TournamentFactory(name="freie Partien", kind=TournamentKind.CASUAL, rounds_count=1)
    finished_names = Tournament.objects.filter(selectors.finished_q()).values_list("name", flat=True)
    assert list(finished_names) == ["fertig"]
    assert selectors.tournament_finished(tournament=finished) is True
    assert selectors.tournament_finished(tournament=partly) is False


@pytest.mark.parametrize(("lang", "done", "link"), [
    ("de-at", "Das Turnier ist beendet: alle 5 Runden sind abgeschlossen.", "Endstand"),
    ("en", "The tournament is finished: all 5 rounds are complete.", "Final standings"),
])
def test_the_pair_page_of_a_finished_event_offers_no_next_round(official_client, home_club, lang, done, link):
    tournament = _event()
    html = text(page(official_client, "pair", tournament.pk, lang=lang))
    assert done in html
    assert link in html
    assert 'id="pair-form"' not in html
    assert 'name="date"' not in html
    assert "Runde 6" not in html and "round 6" not in html
    assert reverse("tournaments:unpair", args=[tournament.pk]) not in html  # round 5 has results


def test_all_rounds_paired_with_results_missing_offers_no_date_either(official_client, home_club):
    tournament = _event(open_last=2)  # round 5 paired, no result yet
    html = text(page(official_client, "pair", tournament.pk, lang="de-at"))
    assert "Alle 5 Runden sind bereits ausgelost." in html
    assert 'name="date"' not in html
    assert "Runde 6 auslosen" not in html
    # No result in round 5 yet: its pairing may still be undone.
    assert "Auslosung von Runde 5 aufheben" in html


def test_undoing_a_pairing_is_offered_only_without_results(official_client, home_club):
    tournament = _event(open_last=1)  # round 5: board 1 drawn, board 2 open
    html = text(page(official_client, "pair", tournament.pk, lang="de-at"))
    assert reverse("tournaments:unpair", args=[tournament.pk]) not in html
    html = text(page(official_client, "unpair", tournament.pk, lang="de-at"))
    assert "Diese Runde hat schon Ergebnisse; ihre Auslosung kann nicht wiederholt werden." in html
    assert 'class="btn btn-danger"' not in html
    # Asked anyway, the service refuses with the translated reason and changes nothing.
    speak(official_client, "de-at")
    response = official_client.post(reverse("tournaments:unpair", args=[tournament.pk]), follow=True)
    assert "Diese Runde hat schon Ergebnisse; ihre Auslosung kann nicht wiederholt werden." in text(response)
    assert Game.objects.filter(round__tournament=tournament, round__number=5).count() == 2


def test_the_unpair_service_refuses_a_round_with_results():
    tournament = _event(open_last=1)
    with pytest.raises(TournamentRefused) as refused:
        services.round_unpair(round=Round.objects.get(tournament=tournament, number=5))
    assert refused.value.message == (
        "Diese Runde hat schon Ergebnisse; ihre Auslosung kann nicht wiederholt werden.")


def _section(html: str, section_id: str) -> str:
    start = html.index(f'id="{section_id}"')
    return html[start:html.index("</section>", start)]


@pytest.mark.parametrize(("lang", "state"), [("de-at", "beendet"), ("en", "finished")])
def test_a_finished_tournament_leaves_the_running_ones(client, home_club, today, lang, state):
    _event(name="Herbstblitz")
    _event(name="Novemberopen", open_last=1)
    speak(client, lang)
    html = client.get("/").content.decode()
    running, recent = _section(html, "running"), _section(html, "recent")
    assert "Novemberopen" in running and "Herbstblitz" not in running
    assert "Herbstblitz" in recent and "Novemberopen" not in recent
    listing = client.get(reverse("tournaments:list")).content.decode()
    rows = {name: re.sub(r"\s+", " ", row) for row in listing.split("<tr")[1:]
            for name in ("Herbstblitz", "Novemberopen") if name in row}
    assert f">{state}</td>" in rows["Herbstblitz"]
    assert f"<td >{state}</td>" not in rows["Novemberopen"].replace('<td class="state">', "<td >")


@pytest.mark.parametrize(("lang", "word"), [("de-at", "beendet"), ("en", "finished")])
def test_the_overview_says_the_tournament_is_finished(client, home_club, lang, word):
    finished, running = _event(name="fertig"), _event(name="offen", open_last=1)
    html = text(page(client, "detail", finished.pk, lang=lang))
    assert f'<span id="tournament-finished">{word}</span>' in html
    assert 'id="tournament-finished"' not in text(page(client, "detail", running.pk, lang=lang))
