"""The demo's team league: "Landesliga Wien 2026/27", built through the league services.

Two divisions of six teams (the Landesliga on six boards, the 1. Klasse A on four), five rounds
each on Sundays from 4 October 2026. Rounds 1-4 are played and rated on entry; round 5 is lined
up. On the way: an empty board lost by forfeit and a player who did not appear (not rated), a
result disputed by the away captain and decided by the league director, and Donaustadt's best
second-team player fixed in the first team after three games there. The demo user ``member``
captains SK Donaustadt 1, ``kapitaen`` captains SV Wienerwald 1, ``official`` directs the league.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from django.contrib.auth.models import User
from django.utils import timezone

from clubrating.clubs.models import Club, Member, Sex
from clubrating.leagues import services
from clubrating.leagues.models import LeagueMatch, LeagueSeason, LeagueTeam
from clubrating.tournaments.models import Result

SEASON_NAME = "Landesliga Wien 2026/27"
DATES = [
    dt.date(2026, 10, 4),
    dt.date(2026, 10, 18),
    dt.date(2026, 11, 8),
    dt.date(2026, 11, 22),
    dt.date(2026, 12, 13),
]
PLAYED_ROUNDS = 4
# The new clubs of the league: name, short name, district, members.
CLUBS = [
    ("ASK Favoriten", "ASK Favoriten", "Wien", 14),
    ("SC Hietzing", "SC Hietzing", "Wien", 14),
    ("SK Ottakring", "SK Ottakring", "Wien", 8),
    ("SG Floridsdorf", "SG Floridsdorf", "Wien", 8),
    ("SK Meidling", "SK Meidling", "Wien", 6),
    ("SC Simmering", "SC Simmering", "Wien", 6),
]
# Division: (name, level, boards, teams as (club short name, team number)).
DIVISIONS = [
    (
        "Landesliga",
        1,
        6,
        [
            ("SK Donaustadt", 1),
            ("SV Wienerwald", 1),
            ("ASK Favoriten", 1),
            ("SC Hietzing", 1),
            ("SK Ottakring", 1),
            ("SG Floridsdorf", 1),
        ],
    ),
    (
        "1. Klasse A",
        2,
        4,
        [
            ("SK Donaustadt", 2),
            ("SK Donaustadt", 3),
            ("ASK Favoriten", 2),
            ("SC Hietzing", 2),
            ("SK Meidling", 1),
            ("SC Simmering", 1),
        ],
    ),
]
# How many roster places each team's block holds, per club (in team order).
BLOCKS = {
    "SK Donaustadt": [8, 6, 6],
    "SV Wienerwald": [11],
    "ASK Favoriten": [8, 6],
    "SC Hietzing": [8, 6],
    "SK Ottakring": [8],
    "SG Floridsdorf": [8],
    "SK Meidling": [6],
    "SC Simmering": [6],
}
# Donaustadt's rank 9 (team 2's best) plays on board 6 of team 1: fixed there after round 3.
FIXED_RANK = 9
FIRST_NAMES = [
    "Lukas",
    "Anna",
    "Florian",
    "Sophie",
    "Tobias",
    "Julia",
    "Stefan",
    "Lena",
    "Markus",
    "Theresa",
    "Andreas",
    "Laura",
    "Michael",
    "Hannah",
]
LAST_NAMES = [
    "Koch",
    "Schober",
    "Zach",
    "Pfeiffer",
    "Graf",
    "Horvath",
    "Kainz",
    "Lackner",
    "Nowak",
    "Petrovic",
    "Riedl",
    "Sommer",
    "Toth",
    "Unger",
    "Vogl",
    "Wieser",
    "Zimmermann",
    "Brandstetter",
    "Haider",
    "Jovanovic",
    "Krenn",
    "Lindner",
    "Mair",
    "Novak",
    "Obermayr",
    "Prinz",
    "Resch",
    "Seidl",
]


def _at(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0)))


def _strength(member: Member) -> int:
    return member.fide_rating or 1400


def _clubs_and_members(report, home: Club, guest: Club, members: list[Member]) -> dict[str, list[Member]]:
    """Every club's players, strongest first (the order of its roster)."""
    rng = random.Random(2627)
    players = {
        "SK Donaustadt": [m for m in members if m.club_id == home.pk],
        "SV Wienerwald": [m for m in members if m.club_id == guest.pk],
    }
    index = 0
    for name, short, city, count in CLUBS:
        club, created = Club.objects.get_or_create(name=name, defaults={"short_name": short, "city": city})
        report.clubs += created
        players[short] = []
        for _n in range(count):
            index += 1
            female = index % 4 == 1
            rating = max(1100, min(2300, int(rng.gauss(1700, 200))))
            member, created = Member.objects.get_or_create(
                national_id=f"AT{300000 + index}",
                defaults={
                    "first_name": rng.choice(FIRST_NAMES[1::2] if female else FIRST_NAMES[0::2]),
                    "last_name": LAST_NAMES[index % len(LAST_NAMES)],
                    "sex": Sex.FEMALE if female else Sex.MALE,
                    "birth_year": 1955 + rng.randrange(0, 55),
                    "club": club,
                    "fide_id": 1_700_000 + index * 7,
                    "fide_rating": rating,
                },
            )
            report.members += created
            players[short].append(member)
    return {short: sorted(group, key=lambda m: (-_strength(m), m.pk)) for short, group in players.items()}


def _lineup(
    roster: list[Member], blocks: list[int], number: int, boards: int, round_number: int
) -> list[Member]:
    """A team's regular lineup: its own block in roster order, one player resting in turn when the
    block is larger than the boards. Donaustadt 1 brings in the second team's best on board 6."""
    start = sum(blocks[: number - 1])
    block = roster[start : start + blocks[number - 1]]
    spare = len(block) - boards
    resting = {block[boards - 1 + (round_number % (spare + 1))]} if spare > 0 and round_number % 2 else set()
    return [m for m in block if m not in resting][:boards]


def demo_league(
    report, *, home: Club, guest: Club, members: list[Member], score: Callable[[random.Random, int, int], str]
) -> None:
    """The league, once: ``score`` draws a game's result from the players' strengths (the demo's
    one way of scoring)."""
    from clubrating.tournaments.recording import game_result_record

    if LeagueSeason.objects.filter(name=SEASON_NAME).exists():
        return
    director = User.objects.get(username="official")
    season = services.season_create(
        name=SEASON_NAME,
        start_date=dt.date(2026, 9, 1),
        end_date=dt.date(2027, 6, 30),
        organizer_club=home,
        directors=[director],
    )
    players = _clubs_and_members(report, home, guest, members)
    clubs = {club.short_name: club for club in Club.objects.filter(short_name__in=players)}
    teams: dict[tuple[str, int], LeagueTeam] = {}
    divisions = []
    for name, level, boards, entrants in DIVISIONS:
        division = services.division_create(season=season, name=name, boards=boards, level=level)
        report.tournaments += 1
        for short, number in entrants:
            teams[short, number] = services.team_register(division=division, club=clubs[short], number=number)
        divisions.append(division)
    for short, roster in players.items():
        entries = []
        for number, size in enumerate(BLOCKS[short], start=1):
            start = sum(BLOCKS[short][: number - 1])
            entries += [(member, teams[short, number]) for member in roster[start : start + size]]
        services.roster_set(season=season, club=clubs[short], entries=entries, on=season.start_date)
    captain = User.objects.get(username="member")
    services.captain_add(team=teams["SK Donaustadt", 1], user=captain)
    kapitaen = User.objects.filter(username="kapitaen").first()
    if kapitaen is None:
        kapitaen = User.objects.create_user("kapitaen", "kapitaen@example.at", "kapitaen")
        report.users += 1
    services.captain_add(team=teams["SV Wienerwald", 1], user=kapitaen)
    for division in divisions:
        services.schedule_create(division=division, dates=DATES)
    # A late registration: SV Wienerwald's twelfth member plays from round 3 on.
    late = (
        Member.objects.filter(club=guest)
        .exclude(roster_entries__roster__season=season)
        .order_by("pk")
        .first()
    )
    if late is not None:
        services.roster_add(
            season=season,
            club=guest,
            member=late,
            team=teams["SV Wienerwald", 1],
            on=dt.date(2026, 11, 1),
            user=director,
            reason="Nachmeldung nach Vereinswechsel",
        )

    by_team = {team.team_id: (short, number) for (short, number), team in teams.items()}
    rng = random.Random(2026_27)
    for round_number, day in enumerate(DATES, start=1):
        matches = (
            LeagueMatch.objects.filter(
                match__round__number=round_number, match__round__tournament__division__season=season
            )
            .select_related("match__round__tournament__division", "match__home_team", "match__away_team")
            .order_by("pk")
        )
        for match in matches:
            boards = match.match.round.tournament.division.boards
            for team_id in (match.match.home_team_id, match.match.away_team_id):
                short, number = by_team[team_id]
                lineup: list[Member | None] = _lineup(
                    players[short], BLOCKS[short], number, boards, round_number
                )
                if (short, number) == ("SK Donaustadt", 1):
                    lineup = [*lineup[:5], players[short][FIXED_RANK - 1]]
                if (short, number) == ("SK Donaustadt", 2):  # its best plays in the first team
                    lineup = players[short][FIXED_RANK : FIXED_RANK + boards]
                if (short, number, round_number) == ("SC Simmering", 1, 2):
                    lineup = [*lineup[:3], None]  # board 4 left empty: lost by forfeit
                services.lineup_submit(
                    match=match,
                    team=teams[short, number],
                    members=lineup,
                    user=director,
                    # (Three days before the match, or now for a match still to come: a step is
                    # never dated later than it was taken.)
                    now=min(_at(day - dt.timedelta(days=3), 20), timezone.now()),
                )
            report.games += match.match.games.count()
            if round_number <= PLAYED_ROUNDS:
                _play(match, rng, director, captain, kapitaen, day, game_result_record, by_team, score)


def _play(match, rng, director, captain, kapitaen, day, record, by_team, score) -> None:
    """Enter the match as its captains would (the director for teams without a captain's login),
    each board rated on entry; the away side confirms. In round 3 a guest of SK Meidling does not
    appear at board 2, and SK Donaustadt disputes its result at ASK Favoriten, which the league
    director decides."""
    home, away = by_team[match.match.home_team_id], by_team[match.match.away_team_id]
    round_number = match.match.round.number
    games = {
        g.board - (match.match.number - 1) * match.match.boards: g
        for g in match.match.games.select_related("white", "black")
    }
    results = {
        board: score(rng, _strength(game.white), _strength(game.black)) for board, game in games.items()
    }
    if (home, away, round_number) == (("SC Hietzing", 2), ("SK Meidling", 1), 3):
        home_ids = set(
            match.match.lineup.filter(team_id=match.match.home_team_id).values_list("member_id", flat=True)
        )
        results[2] = Result.WHITE_FORFEIT_WIN if games[2].white_id in home_ids else Result.BLACK_FORFEIT_WIN
    disputed = (home, away, round_number) == (("ASK Favoriten", 1), ("SK Donaustadt", 1), 3)
    if disputed:
        results[1] = Result.WHITE_WINS
    enterer = captain if home == ("SK Donaustadt", 1) else director
    services.match_results_enter(match=match, results=results, user=enterer, record=record, now=_at(day, 19))
    confirmer = (
        kapitaen if away == ("SV Wienerwald", 1) else captain if away == ("SK Donaustadt", 1) else director
    )
    if disputed:
        services.match_dispute(
            match=match, user=captain, reason="Brett 1 endete remis, nicht 1-0.", now=_at(day, 21)
        )
        services.match_decide(
            match=match,
            user=director,
            record=record,
            results={1: Result.DRAW},
            reason="Partieformular geprüft: Brett 1 endete remis.",
            now=_at(day + dt.timedelta(days=2), 10),
        )
        return
    services.match_confirm(match=match, user=confirmer, now=_at(day, 21))
