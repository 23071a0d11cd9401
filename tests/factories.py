"""factory_boy factories shared by all test areas. Defaults make a valid object with no arguments."""

import datetime

import factory
from factory.django import DjangoModelFactory

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import (
    Bye,
    ByeKind,
    Game,
    GameCategory,
    Result,
    Round,
    Team,
    TeamMatch,
    Tournament,
    TournamentKind,
    TournamentPlayer,
)
from clubrating.tournaments.tiebreaks import edition_for


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Schachklub {n}")
    short_name = factory.Sequence(lambda n: f"SK{n}")
    city = "Wien"


class MemberFactory(DjangoModelFactory):
    class Meta:
        model = Member

    first_name = factory.Sequence(lambda n: f"Vorname{n}")
    last_name = factory.Sequence(lambda n: f"Spieler{n}")
    sex = "m"
    birth_year = 1980
    club = factory.SubFactory(ClubFactory)
    fide_id = None
    fide_rating = None


class TournamentFactory(DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Turnier {n}")
    kind = TournamentKind.SWISS
    category = GameCategory.STANDARD
    start_date = datetime.date(2025, 3, 1)
    rounds_count = 5
    place = "Wien"
    tiebreak_rules = factory.LazyAttribute(lambda o: edition_for(o.start_date))


class TeamFactory(DjangoModelFactory):
    class Meta:
        model = Team

    tournament = factory.SubFactory(TournamentFactory, kind=TournamentKind.TEAM)
    name = factory.Sequence(lambda n: f"Mannschaft {n}")
    club = factory.SubFactory(ClubFactory)
    start_rank = factory.Sequence(lambda n: n + 1)


class TournamentPlayerFactory(DjangoModelFactory):
    class Meta:
        model = TournamentPlayer

    tournament = factory.SubFactory(TournamentFactory)
    member = factory.SubFactory(MemberFactory)
    start_rank = factory.Sequence(lambda n: n + 1)
    rating = None
    fide_rating = factory.LazyAttribute(lambda o: o.member.fide_rating)


class RoundFactory(DjangoModelFactory):
    class Meta:
        model = Round
        django_get_or_create = ("tournament", "number")

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    date = factory.LazyAttribute(
        lambda o: o.tournament.start_date + datetime.timedelta(days=o.number - 1)
    )


class GameFactory(DjangoModelFactory):
    class Meta:
        model = Game

    round = factory.SubFactory(RoundFactory)
    board = factory.Sequence(lambda n: n + 1)
    white = factory.SubFactory(MemberFactory)
    black = factory.SubFactory(MemberFactory)
    result = Result.WHITE_WINS
    # Rated result follows the scored result unless a test says otherwise.
    rated_result = factory.LazyAttribute(lambda o: o.result)


class ByeFactory(DjangoModelFactory):
    class Meta:
        model = Bye

    round = factory.SubFactory(RoundFactory)
    member = factory.SubFactory(MemberFactory)
    kind = ByeKind.PAIRING


class TeamMatchFactory(DjangoModelFactory):
    class Meta:
        model = TeamMatch

    round = factory.SubFactory(RoundFactory, tournament=factory.SelfAttribute("..home_team.tournament"))
    home_team = factory.SubFactory(TeamFactory)
    away_team = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..home_team.tournament"))
    boards = 4
    number = factory.Sequence(lambda n: n + 1)
