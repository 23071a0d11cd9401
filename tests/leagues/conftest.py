"""A small league season for the league tests: two divisions of four teams, four boards.

Landesliga (level 1): Donaustadt 1, Favoriten 1, Hietzing 1, Ottakring 1.
1. Klasse (level 2): Donaustadt 2, Donaustadt 3, Floridsdorf 1, Meidling 1.
Donaustadt's roster: ranks 1-4 team 1, 5-8 team 2, 9-12 team 3; every other club has four
players for its team 1. Three rounds on 4 October, 18 October and 8 November 2026 at 14:00;
lineups are due 24 hours before; two games for a higher team fix a player there.
"""

import copy
import datetime
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from clubrating.leagues import services
from clubrating.leagues.models import Division, LeagueMatch, LeagueSeason, LeagueTeam
from tests.factories import ClubFactory, MemberFactory

DATES = [datetime.date(2026, 10, 4), datetime.date(2026, 10, 18), datetime.date(2026, 11, 8)]
CLUBS = ["Donaustadt", "Favoriten", "Hietzing", "Ottakring", "Floridsdorf", "Meidling"]


def at(day: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


@dataclass
class League:
    season: LeagueSeason
    first: Division
    second: Division
    teams: dict[str, LeagueTeam]
    players: dict[str, list]  # club short name -> members by roster rank
    captains: dict[str, User]
    director: User

    def match(self, team: str, number: int) -> LeagueMatch:
        """The match ``team`` plays in round ``number``."""
        team_id = self.teams[team].team_id
        return LeagueMatch.objects.select_related("match__round").get(
            Q(match__home_team_id=team_id) | Q(match__away_team_id=team_id), match__round__number=number
        )

    def opponent(self, team: str, number: int) -> str:
        match = self.match(team, number).match
        other = match.away_team_id if match.home_team_id == self.teams[team].team_id else match.home_team_id
        return next(name for name, t in self.teams.items() if t.team_id == other)


def build_league(*, fixing_games: int = 2) -> League:
    director = User.objects.create_user("leiter", password="pw")
    season = services.season_create(
        name="Landesliga Wien 2026/27",
        start_date=datetime.date(2026, 9, 1),
        end_date=datetime.date(2027, 6, 30),
        fixing_games=fixing_games,
        directors=[director],
    )
    first = services.division_create(season=season, name="Landesliga", boards=4, level=1)
    second = services.division_create(season=season, name="1. Klasse", boards=4, level=2)
    clubs = {name: ClubFactory(name=f"SK {name}", short_name=name) for name in CLUBS}
    teams = {}
    for name in CLUBS[:4]:
        teams[f"{name} 1"] = services.team_register(division=first, club=clubs[name], number=1)
    teams["Donaustadt 2"] = services.team_register(division=second, club=clubs["Donaustadt"], number=2)
    teams["Donaustadt 3"] = services.team_register(division=second, club=clubs["Donaustadt"], number=3)
    for name in CLUBS[4:]:
        teams[f"{name} 1"] = services.team_register(division=second, club=clubs[name], number=1)
    players = {}
    for name, club in clubs.items():
        count = 12 if name == "Donaustadt" else 4
        players[name] = [
            MemberFactory(club=club, first_name=f"{name[:3]}", last_name=f"Spieler{rank}")
            for rank in range(1, count + 1)
        ]
        own = [teams[f"{name} {1 + (rank - 1) // 4}"] for rank in range(1, count + 1)]
        services.roster_set(
            season=season,
            club=club,
            entries=list(zip(players[name], own, strict=True)),
            on=datetime.date(2026, 9, 1),
        )
    captains = {}
    for team_name, team in teams.items():
        user = User.objects.create_user(team_name.replace(" ", "").lower(), password="pw")
        services.captain_add(team=team, user=user)
        captains[team_name] = user
    for division in (first, second):
        services.schedule_create(division=division, dates=DATES)
    return League(season, first, second, teams, players, captains, director)


@pytest.fixture(scope="module")
def league_once(django_db_setup, django_db_blocker) -> League:
    """The league built once for a test module that asks for it: inside a transaction that is
    rolled back when the module is done; each test runs in a savepoint within it, so what a test
    changes is undone before the next one."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_league()
        transaction.set_rollback(True)


@pytest.fixture
def league(league_once, db) -> League:
    """The league as built, for one test: its own copies of the objects, so that what a test sets
    on one does not reach the next."""
    return copy.deepcopy(league_once)


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def before_deadline(number: int) -> datetime.datetime:
    """Two days before round ``number``: lineups may still be submitted."""
    return at(DATES[number - 1] - datetime.timedelta(days=2), 12)


def submit(league: League, team: str, number: int, ranks: list[int | None], *, user=None, now=None):
    """``team`` lines up its club's players of roster ranks ``ranks`` (None: empty board) in
    round ``number``, as its captain two days before the round unless told otherwise."""
    club = team.rsplit(" ", 1)[0]
    members = [None if rank is None else league.players[club][rank - 1] for rank in ranks]
    return services.lineup_submit(
        match=league.match(team, number),
        team=league.teams[team],
        members=members,
        user=user or league.captains[team],
        now=now or before_deadline(number),
    )
