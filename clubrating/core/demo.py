"""The demo club: realistic, deterministic data for a first look at ClubRating.

Everything is looked up by a natural key before it is created, so running the seed twice
creates nothing twice.
"""

import datetime as dt
import random
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import transaction

from clubrating.clubs.models import Club, Member, Sex
from clubrating.tournaments.models import (
    WHITE_SCORE,
    Bye,
    ByeKind,
    Game,
    GameCategory,
    Result,
    Round,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.pairing.berger import berger_schedule

HOME_CLUB = "Schachklub Donaustadt"
GUEST_CLUB = "SV Wienerwald"
ROUND_ROBIN_NAME = "Vereinsmeisterschaft 2026"
SWISS_NAME = "Herbstopen 2026"

MALE_FIRST = [
    "Lukas",
    "Florian",
    "Tobias",
    "Maximilian",
    "Stefan",
    "Markus",
    "Andreas",
    "Thomas",
    "Michael",
    "Christoph",
    "Martin",
    "Wolfgang",
    "Johann",
    "Franz",
    "Georg",
    "Josef",
    "Felix",
    "David",
    "Paul",
    "Elias",
    "Jakob",
    "Leopold",
    "Gerhard",
    "Herbert",
]
FEMALE_FIRST = [
    "Anna",
    "Lena",
    "Sophie",
    "Katharina",
    "Julia",
    "Theresa",
    "Magdalena",
    "Elisabeth",
    "Hannah",
    "Laura",
    "Barbara",
    "Christina",
    "Veronika",
    "Marlene",
]
LAST = [
    "Gruber",
    "Huber",
    "Bauer",
    "Wagner",
    "Müller",
    "Pichler",
    "Steiner",
    "Moser",
    "Mayer",
    "Hofer",
    "Leitner",
    "Berger",
    "Fuchs",
    "Eder",
    "Fischer",
    "Schmid",
    "Winkler",
    "Weber",
    "Schwarz",
    "Maier",
    "Schneider",
    "Reiter",
    "Mayr",
    "Schmidt",
    "Wimmer",
    "Egger",
    "Brunner",
    "Lang",
    "Baumgartner",
    "Auer",
    "Binder",
    "Lechner",
    "Wolf",
    "Wallner",
    "Aigner",
    "Ebner",
    "Koller",
    "Lehner",
    "Haas",
    "Schuster",
    "Holzer",
    "Strasser",
    "Kogler",
    "Riegler",
]

DEMO_USERS = (
    # username, password, superuser, group
    ("admin", "admin", True, None),
    ("official", "official", False, settings.OFFICIALS_GROUP),
    ("ratingofficer", "ratingofficer", False, settings.RATING_OFFICERS_GROUP),
    ("member", "member", False, None),
)


@dataclass
class DemoReport:
    clubs: int = 0
    members: int = 0
    tournaments: int = 0
    games: int = 0
    users: int = 0

    def __str__(self) -> str:
        return (
            f"clubs +{self.clubs}, members +{self.members}, tournaments +{self.tournaments}, "
            f"games +{self.games}, users +{self.users}"
        )


def _score(rng: random.Random, white: int, black: int) -> str:
    """A plausible result for two FIDE-style ratings (Elo expectation with draws)."""
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    draw = 0.3
    roll = rng.random()
    if roll < expected - draw / 2:
        return Result.WHITE_WINS
    if roll < expected + draw / 2:
        return Result.DRAW
    return Result.BLACK_WINS


def _members(report: DemoReport, home: Club, guest: Club) -> list[Member]:
    rng = random.Random(2026)
    members = []
    for index in range(48):
        female = index % 5 == 3
        first = rng.choice(FEMALE_FIRST if female else MALE_FIRST)
        last = LAST[index % len(LAST)]
        birth = dt.date(1950 + rng.randrange(0, 65), rng.randrange(1, 13), rng.randrange(1, 29))
        rating = max(1000, min(2450, int(rng.gauss(1750, 230))))
        member, created = Member.objects.get_or_create(
            national_id=f"AT{100000 + index}",
            defaults={
                "first_name": first,
                "last_name": last,
                "sex": Sex.FEMALE if female else Sex.MALE,
                "birth_date": birth,
                "birth_year": birth.year,
                "club": home if index < 36 else guest,
                "fide_id": 1_600_000 + index * 7 if rating > 1500 else None,
                "fide_rating": rating if rating > 1500 else None,
                "email": f"{first.lower()}.{last.lower()}@example.at".replace("ü", "ue"),
            },
        )
        report.members += created
        members.append(member)
    return members


def _register(tournament: Tournament, members: list[Member]) -> list[Member]:
    ordered = sorted(members, key=lambda m: (-(m.fide_rating or 0), m.last_name, m.first_name))
    for rank, member in enumerate(ordered, start=1):
        TournamentPlayer.objects.get_or_create(
            tournament=tournament,
            member=member,
            defaults={"start_rank": rank, "rating": member.fide_rating, "fide_rating": member.fide_rating},
        )
    return ordered


def _round_robin(report: DemoReport, members: list[Member]) -> None:
    tournament, created = Tournament.objects.get_or_create(
        name=ROUND_ROBIN_NAME,
        defaults={
            "kind": TournamentKind.ROUND_ROBIN,
            "category": GameCategory.STANDARD,
            "start_date": dt.date(2026, 1, 9),
            "end_date": dt.date(2026, 5, 15),
            "place": "Wien",
            "director": "Franz Gruber",
            "rounds_count": 18,
            "double_round_robin": True,
            "tiebreaks": "DE,SB,WIN,KS",
        },
    )
    if not created:
        return
    report.tournaments += 1
    rng = random.Random(9)
    players = _register(tournament, members[:10])
    schedule = [[(g.white - 1, g.black - 1) for g in rnd] for rnd in berger_schedule(10, double=True)]
    for number, pairs in enumerate(schedule, start=1):
        rnd = Round.objects.create(
            tournament=tournament, number=number, date=tournament.start_date + dt.timedelta(weeks=number - 1)
        )
        for board, (w, b) in enumerate(pairs, start=1):
            white, black = players[w], players[b]
            result = _score(rng, white.fide_rating or 1400, black.fide_rating or 1400)
            Game.objects.create(
                round=rnd,
                board=board,
                white=white,
                black=black,
                result=result,
                rated_result=result,
                date=rnd.date,
            )
            report.games += 1


def _swiss(report: DemoReport, members: list[Member]) -> None:
    tournament, created = Tournament.objects.get_or_create(
        name=SWISS_NAME,
        defaults={
            "kind": TournamentKind.SWISS,
            "category": GameCategory.STANDARD,
            "start_date": dt.date(2026, 9, 4),
            "end_date": dt.date(2026, 12, 18),
            "place": "Wien",
            "director": "Anna Huber",
            "rounds_count": 7,
            "tiebreaks": "BH/C1,BH,SB",
        },
    )
    if not created:
        return
    report.tournaments += 1
    rng = random.Random(7)
    players = _register(tournament, members[10:31])  # 21 players: one bye per round
    points = {p.pk: 0.0 for p in players}
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for number in range(1, 6):
        rnd = Round.objects.create(
            tournament=tournament,
            number=number,
            date=tournament.start_date + dt.timedelta(weeks=2 * (number - 1)),
        )
        order = sorted(players, key=lambda p: (-points[p.pk], -(p.fide_rating or 0)))
        bye = next(p for p in reversed(order) if p.pk not in had_bye)
        had_bye.add(bye.pk)
        order.remove(bye)
        Bye.objects.create(round=rnd, member=bye, kind=ByeKind.PAIRING)
        points[bye.pk] += 1
        board = 0
        while order:
            first = order.pop(0)
            partner = next((p for p in order if frozenset((first.pk, p.pk)) not in met), order[0])
            order.remove(partner)
            met.add(frozenset((first.pk, partner.pk)))
            white, black = (first, partner) if (number + board) % 2 else (partner, first)
            board += 1
            # The last round is still running: its last boards have no result yet.
            finished = number < 5 or board <= 4
            result = _score(rng, white.fide_rating or 1400, black.fide_rating or 1400) if finished else ""
            Game.objects.create(
                round=rnd,
                board=board,
                white=white,
                black=black,
                result=result,
                rated_result=result,
                date=rnd.date,
            )
            report.games += 1
            if result:
                pw = WHITE_SCORE[result]
                points[white.pk] += pw
                points[black.pk] += 1 - pw


def _users(report: DemoReport, member: Member) -> None:
    for username, password, superuser, group_name in DEMO_USERS:
        if User.objects.filter(username=username).exists():
            continue
        if superuser:
            user = User.objects.create_superuser(username, f"{username}@example.at", password)
        else:
            user = User.objects.create_user(username, f"{username}@example.at", password)
        if group_name:
            group, _created = Group.objects.get_or_create(name=group_name)
            user.groups.add(group)
        if username == "member":
            member.user = user
            member.save(update_fields=["user"])
        report.users += 1


DEMO_POOL = "ÖSB Standard"
# Swiss players without a national rating: they show newcomers' start values and pending games.
NEWCOMER_INDEXES = {28, 29, 30}


def _rating_pool(report: DemoReport, members: list[Member]) -> None:
    """An oesb-classic pool whose first half-year (with the club championship) is published and
    whose second half-year (the running Swiss) shows live ratings."""
    from ratings.models import RatingPool
    from ratings.services import period_close, pool_create, ratings_import_list, tournament_ratings_update

    if RatingPool.objects.filter(name=DEMO_POOL).exists():
        return
    pool = pool_create(
        name=DEMO_POOL, rules="oesb-classic", category=GameCategory.STANDARD, start_date=dt.date(2026, 1, 1)
    )
    rng = random.Random(1200)
    rows = ["id;rating;games"]
    for index, member in enumerate(members):
        if index in NEWCOMER_INDEXES:
            continue
        rating = (
            member.fide_rating + rng.randrange(-40, 60) if member.fide_rating else rng.randrange(1150, 1550)
        )
        rows.append(f"{member.national_id};{rating};{rng.randrange(12, 400)}")
    ratings_import_list(pool=pool, text="\n".join(rows) + "\n")
    for name in (ROUND_ROBIN_NAME, SWISS_NAME):
        tournament_ratings_update(tournament=Tournament.objects.get(name=name), pool=pool)
    period_close(pool=pool)


@transaction.atomic
def demo_seed() -> DemoReport:
    report = DemoReport()
    home, created = Club.objects.get_or_create(
        name=HOME_CLUB, defaults={"short_name": "SK Donaustadt", "city": "Wien", "is_home": True}
    )
    report.clubs += created
    guest, created = Club.objects.get_or_create(
        name=GUEST_CLUB, defaults={"short_name": "SV Wienerwald", "city": "Purkersdorf"}
    )
    report.clubs += created
    members = _members(report, home, guest)
    _round_robin(report, members)
    _swiss(report, members)
    for group_name in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP):
        Group.objects.get_or_create(name=group_name)
    _users(report, members[0])
    _rating_pool(report, members)
    return report
