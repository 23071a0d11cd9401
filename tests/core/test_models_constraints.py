"""The invariants of the club domain hold in the database itself, not only in forms."""

import pytest
from django.db import IntegrityError, transaction

from clubrating.clubs.models import Club, Member
from clubrating.tournaments.models import Bye, ByeKind, Game, Result, Tournament
from tests.factories import (
    ClubFactory,
    GameFactory,
    MemberFactory,
    RoundFactory,
    TournamentFactory,
    TournamentPlayerFactory,
)

pytestmark = pytest.mark.django_db


def _rejected(create) -> bool:
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


def test_nobody_plays_himself():
    member = MemberFactory()
    assert _rejected(lambda: GameFactory(white=member, black=member))


def test_one_game_per_board_per_round():
    game = GameFactory(board=1)
    assert _rejected(lambda: GameFactory(round=game.round, board=1))
    assert GameFactory(round=game.round, board=2).board == 2


def test_a_player_at_most_once_per_round_as_white_and_as_black():
    game = GameFactory(board=1)
    assert _rejected(lambda: GameFactory(round=game.round, board=2, white=game.white))
    assert _rejected(lambda: GameFactory(round=game.round, board=3, black=game.black))


def test_one_bye_per_member_and_round():
    rnd = RoundFactory()
    member = MemberFactory()
    Bye.objects.create(round=rnd, member=member, kind=ByeKind.HALF)
    assert _rejected(lambda: Bye.objects.create(round=rnd, member=member, kind=ByeKind.FULL))


def test_result_must_be_a_known_code():
    assert _rejected(lambda: GameFactory(result="2-0"))
    assert GameFactory(result=Result.DRAW).get_result_display() == "½-½"


def test_round_numbers_unique_and_positive():
    tournament = TournamentFactory()
    RoundFactory(tournament=tournament, number=1)
    assert _rejected(lambda: tournament.rounds.create(number=1))
    assert _rejected(lambda: tournament.rounds.create(number=0))


def test_tournament_end_not_before_start():
    t = TournamentFactory.build()
    t.end_date = t.start_date.replace(year=t.start_date.year - 1)
    assert _rejected(t.save)


def test_registration_once_and_unique_start_rank():
    player = TournamentPlayerFactory(start_rank=1)
    assert _rejected(
        lambda: TournamentPlayerFactory(tournament=player.tournament, member=player.member, start_rank=2)
    )
    assert _rejected(lambda: TournamentPlayerFactory(tournament=player.tournament, start_rank=1))


def test_member_ids_unique_but_blank_national_ids_allowed():
    MemberFactory(national_id="", fide_id=None)
    MemberFactory(national_id="", fide_id=None)
    MemberFactory(national_id="AT1", fide_id=1503014)
    assert _rejected(lambda: MemberFactory(national_id="AT1"))
    assert _rejected(lambda: MemberFactory(fide_id=1503014))
    assert Member.objects.count() == 3


def test_only_one_home_club():
    Club.objects.create(name="A", is_home=True)
    ClubFactory(name="B")
    assert _rejected(lambda: Club.objects.create(name="C", is_home=True))


def test_str_reads_like_the_domain():
    game = GameFactory(
        white=MemberFactory(first_name="Anna", last_name="Huber"),
        black=MemberFactory(first_name="Franz", last_name="Gruber"),
        result=Result.BLACK_WINS,
        round=RoundFactory(tournament=TournamentFactory(name="Open"), number=3),
    )
    assert str(game) == "Huber, Anna – Gruber, Franz 0-1"
    assert str(Tournament.objects.get()) == "Open"
    assert Game.objects.get().is_rateable is True
