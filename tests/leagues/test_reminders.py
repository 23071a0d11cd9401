"""E-mail reminders of a missing result before the season's result-entry deadline: to the home
captains, once a match, from the management command cron runs."""

import datetime
import io

import pytest
from django.core import mail
from django.core.management import call_command

from clubrating.leagues import services
from clubrating.leagues.models import LeagueMatch
from clubrating.leagues.reminders import result_reminders_send
from clubrating.tournaments.models import Result
from ratings.services import game_record_result
from tests.leagues.conftest import DATES, at, submit

MONDAY = DATES[0] + datetime.timedelta(days=1)


@pytest.fixture
def due(league):
    """Results due 28 hours after the start (Sunday 14:00 → Monday 18:00); every captain has an
    address; Donaustadt 1 – Ottakring 1 of round 1 has its lineups, the others none."""
    league.season.result_deadline_hours = 28
    league.season.save()
    for name, user in league.captains.items():
        user.email = f"{name.replace(' ', '').lower()}@example.org"
        user.save()
    submit(league, "Donaustadt 1", 1, [1, 2, 3, 4])
    submit(league, "Ottakring 1", 1, [1, 2, 3, 4])
    return league


def _home(league, match: LeagueMatch) -> str:
    return next(name for name, team in league.teams.items() if team.team_id == match.match.home_team_id)


def test_the_home_captains_are_reminded_once_six_hours_before_the_result_is_due(due):
    league = due
    match = league.match("Donaustadt 1", 1)
    home = _home(league, match)
    round_one = LeagueMatch.objects.filter(match__round__number=1).count()
    # Sunday 20:00 and Monday 11:59: not yet.
    assert result_reminders_send(now=at(DATES[0], 20)) == 0
    assert result_reminders_send(now=at(MONDAY, 11, 59)) == 0
    assert mail.outbox == []
    # Monday 12:00: every round-1 match without its result; each to its home captain, in German.
    assert result_reminders_send(now=at(MONDAY, 12)) == round_one == 4
    assert len(mail.outbox) == 4
    sent = next(m for m in mail.outbox if m.to == [f"{home.replace(' ', '').lower()}@example.org"])
    other = "Ottakring 1" if home == "Donaustadt 1" else "Donaustadt 1"
    names = (home, other) if home == "Donaustadt 1" else (other, home)
    assert sent.subject == f"Ergebnis fehlt: {names[0]} – {names[1]}"
    assert sent.body == (
        f"Das Ergebnis des Mannschaftskampfs {names[0]} – {names[1]} ist noch nicht eingetragen. Bitte "
        "tragen Sie es bis 05.10.2026 18:00 ein; ein später eingetragenes Ergebnis wird für den "
        "Ligaleiter als verspätet markiert."
    )
    match.refresh_from_db()
    assert match.result_reminded_at == at(MONDAY, 12)
    # Run again (cron every quarter of an hour): nothing more.
    assert result_reminders_send(now=at(MONDAY, 12, 15)) == 0
    assert len(mail.outbox) == 4


def test_a_match_with_its_result_is_not_reminded_and_the_command_reports(due, monkeypatch):
    league = due
    match = league.match("Donaustadt 1", 1)
    services.match_results_enter(
        match=match,
        results={b: Result.DRAW for b in range(1, 5)},
        user=league.captains[_home(league, match)],
        record=game_record_result,
        now=at(DATES[0], 19),
    )
    monkeypatch.setattr("django.utils.timezone.now", lambda: at(MONDAY, 13))
    out = io.StringIO()
    call_command("league_reminders", stdout=out)
    assert out.getvalue() == "3 Ergebnis-Erinnerungen gesendet.\n"
    assert len(mail.outbox) == 3
    assert all(m.to != [f"{_home(league, match).replace(' ', '').lower()}@example.org"] for m in mail.outbox)
    call_command("league_reminders")
    assert len(mail.outbox) == 3
    match.refresh_from_db()
    assert match.result_reminded_at is None
