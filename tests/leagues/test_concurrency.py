"""Two captains of one club line up the same player for two matches of one round at the same
moment (SQLite and PostgreSQL): one lineup is saved, the other refused by name."""

import threading

import pytest
from django.db import connection
from django.utils import translation

from clubrating.leagues.services import LineupRefused
from clubrating.tournaments.models import LineupEntry
from tests.leagues.conftest import build_league, submit

pytestmark = pytest.mark.db_specific


def _together(work):
    """Run each of ``work`` in a thread of its own, released at once: {name: lineup or problems}."""
    barrier = threading.Barrier(len(work))
    outcomes = {}

    def run(name, job):
        try:
            with translation.override("en"):
                barrier.wait()
                outcomes[name] = job()
        except LineupRefused as refusal:
            outcomes[name] = refusal.problems
        except Exception as exc:  # reported to the test thread
            outcomes[name] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in work.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_one_player_lined_up_for_two_matches_of_a_round_at_once_plays_only_one():
    league = build_league()
    player = league.players["Donaustadt"][4]  # Spieler5: rank 5, team 2; team 1 may line him up too
    for number in (1, 2, 3):
        outcomes = _together(
            {
                "Donaustadt 1": lambda number=number: submit(league, "Donaustadt 1", number, [1, 2, 3, 5]),
                "Donaustadt 2": lambda number=number: submit(league, "Donaustadt 2", number, [5, 6, 7, 8]),
            }
        )
        refused = {team: o for team, o in outcomes.items() if o and isinstance(o[0], str)}
        assert len(refused) == 1, outcomes
        ((team, problems),) = refused.items()
        other, board = ("Donaustadt 2", 4) if team == "Donaustadt 1" else ("Donaustadt 1", 1)
        assert problems == [f"Board {board}: Spieler5, Don already plays for {other} in this round."]
        assert LineupEntry.objects.filter(member=player, match__round__number=number).count() == 1
