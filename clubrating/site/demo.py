"""The demo club: realistic, deterministic data for a first look at ClubRating.

Everything is looked up by a natural key before it is created, so running the seed twice
creates nothing twice. The tournaments are registered, paired, dated and scored through the app's
own services and pairing engine, and the first period is closed while the championship runs.
"""

import datetime as dt
import random
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from clubrating.clubs.models import Club, Member, Sex
from clubrating.site.demo_league import demo_league
from clubrating.tournaments import checkin, entries, services
from clubrating.tournaments.models import (
    GameCategory,
    Result,
    Round,
    Tournament,
    TournamentKind,
)
from clubrating.tournaments.tiebreaks import RECOMMENDED

HOME_CLUB = "Schachklub Donaustadt"
GUEST_CLUB = "SV Wienerwald"
ROUND_ROBIN_NAME = "Vereinsmeisterschaft 2026"
SWISS_NAME = "Herbstopen 2026"
OPEN_NAME = "Winter-Open"

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


def _rated(pool, member: Member) -> int | None:
    """The member's published rating in the pool (registration takes it, as an official would)."""
    from ratings.models import PoolMember

    return PoolMember.objects.filter(pool=pool, member=member).values_list("rating", flat=True).first()


def _register(tournament: Tournament, members: list[Member], pool) -> None:
    for member in members:
        rating = _rated(pool, member)
        services.player_register(tournament=tournament, member=member,
                                 rating=round(rating) if rating is not None else None)


def _play_round(report: DemoReport, rng: random.Random, tournament: Tournament, *, open_boards: int = 0,
                by_board: bool = False) -> Round:
    """Pair the next round with the app's pairing engine (dated by the tournament's schedule) and
    score it; the last ``open_boards`` boards stay open.

    By default the results are recorded for the whole round at once, as an import records them
    (``game_results_record``: checked, written with their history, rated once); a result through
    the result entry costs a re-evaluation per board. ``by_board`` enters them one by one
    (``game_result_record``), as officials do."""
    from clubrating.tournaments.recording import game_result_record, game_results_record

    rnd = services.round_pair(tournament=tournament)
    strength = {p.member_id: p.fide_rating or p.rating or 1400 for p in tournament.players.all()}
    games = list(rnd.games.order_by("board"))
    scored = games[: len(games) - open_boards]
    results = [_score(rng, strength[game.white_id], strength[game.black_id]) for game in scored]
    if by_board:
        for game, result in zip(scored, results, strict=True):
            game_result_record(game=game, result=result)
    else:
        game_results_record(games=scored, results=[(result, None) for result in results])
    report.games += len(games)
    return rnd


def _season(report: DemoReport, members: list[Member]) -> None:
    """The club's season, as officials and the rating officer would run it in the app: an
    oesb-classic pool with a starting list; the club championship (a double round robin, weekly)
    runs across the end of the first half-year, which is closed while it runs; the autumn Swiss
    (every other week) is running, its last round's last boards without result."""
    from ratings.services import period_close, pool_create, ratings_import_list

    if Tournament.objects.filter(name=ROUND_ROBIN_NAME).exists():
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

    championship = Tournament.objects.create(
        name=ROUND_ROBIN_NAME, kind=TournamentKind.ROUND_ROBIN, category=GameCategory.STANDARD,
        start_date=dt.date(2026, 4, 3), end_date=dt.date(2026, 7, 31), round_interval_days=7, place="Wien",
        director="Franz Gruber", double_round_robin=True, tiebreaks=RECOMMENDED[TournamentKind.ROUND_ROBIN],
    )
    report.tournaments += 1
    _register(championship, members[:10], pool)
    rng = random.Random(9)
    # Rounds 1-13 (3.4.-26.6.) fall in the first half-year, rounds 14-18 (3.7.-31.7.) in the second.
    while _play_round(report, rng, championship).date <= dt.date(2026, 6, 30) - dt.timedelta(days=7):
        pass
    period_close(pool=pool)
    for _number in range(14, 19):
        _play_round(report, rng, championship, by_board=True)

    swiss = Tournament.objects.create(
        name=SWISS_NAME, kind=TournamentKind.SWISS, category=GameCategory.STANDARD,
        start_date=dt.date(2026, 9, 4), end_date=dt.date(2026, 12, 18), round_interval_days=14,
        place="Wien", director="Anna Huber", rounds_count=7, tiebreaks=RECOMMENDED[TournamentKind.SWISS],
    )
    report.tournaments += 1
    _register(swiss, members[10:31], pool)  # 21 players: one bye per round
    rng = random.Random(7)
    for _number in range(1, 5):
        _play_round(report, rng, swiss)
    _play_round(report, rng, swiss, open_boards=6)  # round 5 is still being played


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


def _minor(report: DemoReport, home: Club) -> Member:
    """A junior born in 2012 whose guardians' consent is not recorded: visitors see only her
    name (``clubrating.clubs.privacy``)."""
    member, created = Member.objects.get_or_create(national_id="AT100900", defaults={
        "first_name": "Mia", "last_name": "Klein", "sex": Sex.FEMALE, "birth_date": dt.date(2012, 5, 14),
        "birth_year": 2012, "club": home, "guardian_consent_on": None,
    })
    report.members += created
    return member


def _registration(report: DemoReport, members: list[Member], minor: Member) -> None:
    """A Swiss open for registration (members and guests, check-in before round 1): eight
    players in the starting list, five of them checked in; two members and a guest wait for the
    official's decision. Its dates follow the day of seeding, so that its registration is open."""
    from ratings.models import RatingPool

    if Tournament.objects.filter(name=OPEN_NAME).exists():
        return
    now = timezone.now()
    start = timezone.localdate(now) + dt.timedelta(days=21)
    tournament = Tournament.objects.create(
        name=OPEN_NAME, kind=TournamentKind.SWISS, category=GameCategory.STANDARD, start_date=start,
        end_date=start + dt.timedelta(days=28), round_interval_days=7, place="Wien", director="Anna Huber",
        rounds_count=5, tiebreaks=RECOMMENDED[TournamentKind.SWISS],
    )
    report.tournaments += 1
    closes = timezone.make_aware(dt.datetime.combine(start, dt.time(18, 0)))
    entries.entry_window_set(tournament=tournament, opens_at=now - dt.timedelta(days=7), closes_at=closes,
                             max_players=24, members_may_enter=True, guests_may_enter=True, check_in=True)
    pool = RatingPool.objects.filter(name=DEMO_POOL).first()
    _register(tournament, [*members[31:38], minor], pool)
    for player in tournament.players.order_by("pk")[:5]:
        checkin.player_check_in(player=player, now=now)
    for member in members[38:40]:
        entries.entry_submit_member(tournament=tournament, member=member, now=now)
    entries.entry_submit_guest(tournament=tournament, last_name="Nagy", first_name="Péter",
                               club_name="Győri Sakk Klub", birth_year=1994, now=now)


DEMO_POOL = "ÖSB Standard"
# Swiss players without a national rating: they show newcomers' start values and pending games.
NEWCOMER_INDEXES = {28, 29, 30}


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
    _season(report, members)
    _registration(report, members, _minor(report, home))
    for group_name in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP):
        Group.objects.get_or_create(name=group_name)
    _users(report, members[0])
    _fide_list(members)
    demo_league(report, home=home, guest=guest, members=members, score=_score)
    return report


# Austrians in FIDE's list who are not members yet: the lookup finds them to be added.
FIDE_NEWCOMERS = (
    (1_700_001, "Aigner, Lukas", "M", "", 1980, 2001),
    (1_700_008, "Brunner, Sophie", "F", "WFM", 2105, 2006),
    (1_700_015, "Leitner-Öztürk, Emre", "M", "FM", 2251, 1994),
)


def _fide_list(members: list[Member]) -> None:
    """This month's FIDE list for the members with a FIDE ID and a few newcomers, imported as
    the rating officer imports FIDE's file: the lookup and the members' FIDE history show it."""
    import tempfile
    from pathlib import Path

    from clubrating.federation.models import FideList
    from clubrating.federation.services import fide_list_import
    from clubrating.interchange.formats.fide_list import HEADER, fide_list_line

    if FideList.objects.exists():
        return
    lines = [HEADER] + [fide_list_line({
        "ID Number": m.fide_id, "Name": f"{m.last_name}, {m.first_name}", "Fed": "AUT",
        "Sex": m.sex.upper(), "SRtng": m.fide_rating, "SGm": 0, "SK": 20, "B-day": m.birth_year,
        "Flag": "w" if m.sex == Sex.FEMALE else ""}) for m in members if m.fide_id]
    lines += [fide_list_line({
        "ID Number": fide_id, "Name": name, "Fed": "AUT", "Sex": sex, "Tit": title,
        "WTit": title if title.startswith("W") else "", "SRtng": rating, "SGm": 4, "SK": 20,
        "RRtng": rating - 40, "Rk": 20, "B-day": born, "Flag": "w" if sex == "F" else ""})
        for fide_id, name, sex, title, rating, born in FIDE_NEWCOMERS]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "players_list_foa.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        fide_list_import(path=path, month=timezone.localdate().replace(day=1), file_name=path.name,
                         apply=True)
